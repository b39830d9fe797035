import ATProto
import Testing

struct SyntaxTests {
    @Test("DIDs from the atproto spec are accepted and malformed ones refused")
    func dids() {
        for ok in ["did:plc:z72i7hdynmk6r22z27h6tvur", "did:web:example.com", "did:method:val:two", "did:m:v"] {
            #expect(DID.isValid(ok), "\(ok)")
        }
        for bad in [
            "did:METHOD:val", "did:m123:val", "DID:method:val", "did:method:", "did:method:val/two", "did:method:val?two", "did:method:val%",
            "did:plc", "did::x", "",
        ] {
            #expect(!DID.isValid(bad), "\(bad)")
        }
    }

    @Test("handles follow domain syntax and are lower-cased")
    func handles() throws {
        for ok in ["jay.bsky.social", "8.cn", "name.t--t", "XX.LCS.MIT.EDU", "a.co", "xn--notarealidn.com"] {
            #expect(Handle.isValid(ok), "\(ok)")
        }
        for bad in [
            "jo@hn.test", "💩.test", "john..test", "xn--bcher-.tld", "john.0", "cn.8", "www.masełkowski.pl.com", "org", "name.org.", "-a.com",
            "a-.com",
        ] {
            #expect(!Handle.isValid(bad), "\(bad)")
        }
        #expect(try Handle("Alice.Example.COM").rawValue == "alice.example.com")
    }

    @Test("AT-URIs parse into authority, collection and record key")
    func aturis() throws {
        let uri = try ATURI("at://did:plc:abc123/social.grain.story/3jzfcijpj2z2a")
        #expect(uri.authority == "did:plc:abc123")
        #expect(uri.collection == "social.grain.story")
        #expect(uri.rkey == "3jzfcijpj2z2a")
        #expect(uri.description == "at://did:plc:abc123/social.grain.story/3jzfcijpj2z2a")
        for bad in ["at://did:plc:abc", "https://x/a.b.c/d", "at://did:plc:abc/notnsid/x", "at://did:plc:abc/a.b.c/..", "at://did:plc:abc/a.b.c/x?y"]
        {
            #expect(throws: SyntaxError.self) { try ATURI(bad) }
        }
    }

    @Test("TIDs round-trip, sort by time and are strictly increasing from one clock")
    func tids() throws {
        let tid = try TID("3jzfcijpj2z2a")
        #expect(tid.description == "3jzfcijpj2z2a")
        #expect(throws: SyntaxError.self) { try TID("zzzzzzzzzzzzz") }
        let clock = TIDClock(clockID: 7)
        let fixed = UTCTime(milliseconds: 1_700_000_000_000)
        let a = clock.next(now: fixed)
        let b = clock.next(now: fixed)
        #expect(a < b)
        #expect(a.description < b.description)
        #expect(a.microseconds == 1_700_000_000_000_000)
    }

    @Test("datetimes print like toISOString and parse offsets into UTC")
    func datetimes() {
        #expect(UTCTime(milliseconds: 0).iso8601 == "1970-01-01T00:00:00.000Z")
        #expect(UTCTime(milliseconds: 1_700_000_000_123).iso8601 == "2023-11-14T22:13:20.123Z")
        #expect(UTCTime(milliseconds: 951_782_400_000).iso8601 == "2000-02-29T00:00:00.000Z")
        #expect(UTCTime(iso8601: "2026-08-19T23:03:11.123+02:00")?.iso8601 == "2026-08-19T21:03:11.123Z")
        #expect(UTCTime(iso8601: "2026-08-19T21:03:11Z")?.iso8601 == "2026-08-19T21:03:11.000Z")
        #expect(UTCTime(iso8601: "2026-08-19T21:03:11.1234567Z")?.microseconds == UTCTime(iso8601: "2026-08-19T21:03:11.123456Z")?.microseconds)
        for bad in [
            "2026-08-19", "2026-08-19T21:03:11", "2026-13-19T21:03:11Z", "2026-08-19 21:03:11Z", "2026-08-19T21:03:11.Z", "nonsense-string-here!",
        ] {
            #expect(UTCTime(iso8601: bad) == nil, "\(bad)")
        }
        for ms in stride(from: Int64(-5_000_000_000_000), through: 5_000_000_000_000, by: 123_456_789_011) {
            let t = UTCTime(milliseconds: ms)
            #expect(UTCTime(iso8601: t.iso8601) == t)
        }
    }
}
