import Foundation
import Testing
import WebAddresses

struct OriginParsingTests {
    @Test("an origin with its scheme's default port is the origin without it: equal, one hash, one text")
    func defaultPort() throws {
        let bare = try #require(Origin("https://example.com"))
        let explicit = try #require(Origin("https://example.com:443"))
        #expect(bare == explicit)
        #expect(Set([bare, explicit]).count == 1)
        #expect(explicit.description == "https://example.com")
        #expect(explicit.port == nil)
        #expect(bare.effectivePort == 443)
        #expect(Origin("http://example.com")?.effectivePort == 80)
        #expect(Origin("http://example.com:80/") == Origin("http://example.com"))
        #expect(Origin("http://example.com:443") != Origin("https://example.com"), "the default is the scheme's own")
        #expect(Origin("http://example.com:8080")?.port == 8080)
        #expect(Origin("http://example.com:8080")?.effectivePort == 8080)
        #expect(Origin("http://example.com:8080")?.description == "http://example.com:8080")
    }

    @Test("the origin of a URL: scheme and host lowercased, path, query and fragment dropped, an IPv6 host in brackets")
    func urls() throws {
        #expect(Origin("https://Example.COM/path")?.description == "https://example.com")
        #expect(Origin("HTTPS://Example.COM:443/a?b#c") == Origin("https://example.com"))
        #expect(Origin("http://127.0.0.1:8080/other?q")?.description == "http://127.0.0.1:8080")
        let v6 = try #require(Origin("http://[::1]:8080/"))
        #expect(v6.host == "::1")
        #expect(v6.urlHost == "[::1]")
        #expect(v6.address == IPAddress("::1"))
        #expect(v6.description == "http://[::1]:8080")
        #expect(Origin("http://[0:0::1]:8080") == v6, "one spelling per address")
        #expect(Origin("http://example.com")?.urlHost == "example.com")
        #expect(Origin("http://example.com")?.address == nil)
        #expect(Origin(try #require(URL(string: "http://127.0.0.1:8080/xrpc"))) == Origin("http://127.0.0.1:8080"))
    }

    @Test("other schemes, user info, malformed hosts and ports, and text that is no URL are not origins")
    func refused() {
        let bad = [
            "ftp://example.com/", "file:///etc/passwd", "not a url", "null", "https://", "https:///path", "example.com",
            "http://allowed.test@127.0.0.1:9/", "http://user:pass@example.com/", "http://exa mple.com/", "http://example.com./",
            "http://example.com:0/", "http://example.com:080/", "http://example.com:65536/", "http://example.com:/",
            "http://127.1/", "http://0x7f.0.0.1/", "http://[fe80::1%25eth0]/", "http://[127.0.0.1]/", "http://::1/",
            "http://ex%41mple.com/", "http://bücher.example/",
        ]
        for text in bad {
            #expect(Origin(text) == nil, "\(text)")
        }
    }

    @Test("the path, query and fragment after the origin must be URL text, as URLComponents required of the authorization server's origins")
    func urlTail() {
        #expect(Origin("https://example.com/a/b?c=d&e=%2F#frag") != nil)
        #expect(Origin("https://example.com/a:b@c;d,e!$'()*+=~-._?x/y?z") != nil)
        for bad in [
            "https://example.com/a b", "https://example.com/a\tb", "https://example.com/<script>", "https://example.com/\"",
            "https://example.com/a%zz", "https://example.com/a%2", "https://example.com/#a#b", "https://example.com/é",
            "https://example.com/a\\b", "https://example.com/{x}", "https://example.com/?a=[1]",
        ] {
            #expect(Origin(bad) == nil, "\(bad)")
        }
    }

    @Test("an authority is a name, a dotted quad or a bracketed IPv6 address with an optional port; a zone has its own reason")
    func authorities() throws {
        let name = try Authority.parse("Box.Local:8080").get()
        #expect(name.host == "box.local")
        #expect(name.port == 8080)
        #expect(name.address == nil)
        #expect(try Authority.parse("192.168.1.20").get().address == IPAddress("192.168.1.20"))
        #expect(try Authority.parse("[::ffff:10.0.0.1]").get().host == "::ffff:10.0.0.1", "a bracketed host stays IPv6 text")
        #expect(Authority.parse("") == .failure(.empty))
        #expect(Authority.parse("[fe80::1%25eth0]:80") == .failure(.zoneIdentifier))
        #expect(Authority.parse("box:99999") == .failure(.malformedPort))
        #expect(Authority.parse("evil.example@box") == .failure(.malformedHost))
        #expect(Origin(scheme: "HTTP", authority: "Box:80")?.description == "http://box")
        #expect(Origin(scheme: "ftp", authority: "box") == nil)
    }
}
