import ATProto
import Clocks
import HatkClient
import Lexicon
import Synchronization
import TestSupport
import Testing

@testable import FrontState

/// Marks for an upstream with Grain's viewed state: sent with `markStoriesViewed` in batches of at most 100, after
/// the batch delay or at once when a batch is full, each once; a batch the upstream could not take for a while is
/// sent again, one it refused is dropped. (How the front detects that state: `AppTests.UpstreamSeenTests`.)
@Suite struct UpstreamSeenMarksTests {
    static func session(_ did: String) -> BrowserSession {
        BrowserSession(
            idHash: "h", did: did, handle: "x",
            tokens: TokenSet(accessToken: "a", refreshToken: nil, expiresAt: 0, subject: did, scope: nil, handle: nil),
            dpopKey: [], origin: "")
    }

    @Test("marks wait for the batch (counting at once for the account), go in batches of at most 100, each once")
    func batches() async throws {
        let sent = Mutex<[[String]]>([])
        let marks = UpstreamSeenMarks(delay: .seconds(3600)) { uris, _ in sent.withLock { $0.append(uris.map(\.description)) } }
        let session = Self.session("did:plc:viewer")
        let now = UTCTime(iso8601: "2026-12-01T12:00:00.000Z")!
        for i in 0..<150 {
            marks.mark(uri: try ATURI("at://did:plc:maya/social.grain.story/3k\(1000 + i)aaaaaaa"), createdAt: now, session: session)
        }
        marks.mark(uri: try ATURI("at://did:plc:maya/social.grain.story/3k1000aaaaaaa"), createdAt: now, session: session)
        #expect(marks.state(for: "did:plc:viewer").uris.count == 150)
        // The hundredth mark sends a batch at once, without waiting for the timer.
        try await waitUntil { sent.withLock { $0.count } >= 1 }
        await marks.flush("did:plc:viewer")
        let batches = sent.withLock { $0 }
        #expect(batches.map(\.count).reduce(0, +) == 150)
        #expect(batches.allSatisfy { $0.count <= MarkStoriesViewed.maxStories })
        #expect(Set(batches.joined()).count == 150)
        await marks.flush("did:plc:viewer")
        #expect(sent.withLock { $0.count } == batches.count, "nothing left to send")
    }

    @Test("marks go up on their own once the batch delay has passed, together, and not before")
    func batchDelay() async throws {
        let sent = Mutex<[[String]]>([])
        let sleeps = HeldSleeps()
        let marks = UpstreamSeenMarks(delay: .seconds(30), clock: sleeps.clock) { uris, _ in
            sent.withLock { $0.append(uris.map(\.description)) }
        }
        let session = Self.session("did:plc:viewer")
        let now = UTCTime(iso8601: "2026-12-01T12:00:00.000Z")!
        let uris = ["at://did:plc:maya/social.grain.story/3kaaaaaaaaaa1", "at://did:plc:maya/social.grain.story/3kaaaaaaaaaa2"]
        for uri in uris { marks.mark(uri: try ATURI(uri), createdAt: now, session: session) }
        try await waitUntil { sleeps.held == 1 }
        #expect(sleeps.requested == [.seconds(30)], "one timer for the batch, not one a mark")
        #expect(sent.withLock { $0.isEmpty }, "they wait for the delay")
        sleeps.endAll()
        try await waitUntil { sent.withLock { !$0.isEmpty } }
        #expect(sent.withLock { $0 } == [uris], "one batch, without a flush asked for")
        marks.mark(uri: try ATURI("at://did:plc:maya/social.grain.story/3kaaaaaaaaaa3"), createdAt: now, session: session)
        try await waitUntil { sleeps.held == 1 }
        #expect(sent.withLock { $0.count } == 1, "the later mark waits for its own delay")
        sleeps.endAll()
        try await waitUntil { sent.withLock { $0.count } == 2 }
        #expect(sent.withLock { $0.last } == ["at://did:plc:maya/social.grain.story/3kaaaaaaaaaa3"], "a later mark starts the next batch")
    }

    @Test("a batch the upstream could not take for a while goes again after the delay, though nothing more is marked")
    func requeueIsRescheduled() async throws {
        let attempts = Mutex<[[String]]>([])
        let sleeps = HeldSleeps()
        let marks = UpstreamSeenMarks(delay: .seconds(30), clock: sleeps.clock) { uris, _ in
            let n = attempts.withLock {
                $0.append(uris.map(\.description))
                return $0.count
            }
            if n == 1 { throw HatkError(kind: .timeout, endpoint: "markStoriesViewed") }
        }
        let session = Self.session("did:plc:viewer")
        let uri = "at://did:plc:maya/social.grain.story/3kaaaaaaaaaa1"
        marks.mark(uri: try ATURI(uri), createdAt: UTCTime(iso8601: "2026-12-01T12:00:00.000Z")!, session: session)
        // The batch's timer sends it and it times out. The person watched, closed and left: no further mark and no
        // flush come from them, so the retry must have scheduled its own timer.
        try await waitUntil { sleeps.held == 1 }
        sleeps.endAll()
        try await waitUntil { attempts.withLock { $0.count } >= 1 && sleeps.held == 1 }
        #expect(attempts.withLock { $0.count } == 1, "the retry waits for the delay")
        sleeps.endAll()
        try await waitUntil { attempts.withLock { $0.count } >= 2 }
        #expect(attempts.withLock { $0 } == [[uri], [uri]])
        #expect(sleeps.requested.count == 2, "sent once it went through: no further timer")
        await marks.flushAll()
        #expect(attempts.withLock { $0.count } == 2, "nothing left to send")
    }

    @Test("a batch that fails for a while is kept for the next; one refused (signed out) is dropped")
    func failures() async throws {
        let attempts = Mutex(0)
        let marks = UpstreamSeenMarks(delay: .seconds(3600)) { _, _ in
            let n = attempts.withLock {
                $0 += 1; return $0
            }
            if n == 1 { throw HatkError(kind: .timeout, endpoint: "markStoriesViewed") }
            if n == 3 { throw HatkError(kind: .http(status: 401, error: "Authentication required"), endpoint: "markStoriesViewed") }
        }
        let session = Self.session("did:plc:viewer")
        let now = UTCTime(iso8601: "2026-12-01T12:00:00.000Z")!
        marks.mark(uri: try ATURI("at://did:plc:maya/social.grain.story/3kaaaaaaaaaa1"), createdAt: now, session: session)
        await marks.flush("did:plc:viewer")
        await marks.flush("did:plc:viewer")
        #expect(attempts.withLock { $0 } == 2, "retried after the timeout")
        marks.mark(uri: try ATURI("at://did:plc:maya/social.grain.story/3kaaaaaaaaaa2"), createdAt: now, session: session)
        await marks.flush("did:plc:viewer")
        await marks.flush("did:plc:viewer")
        #expect(attempts.withLock { $0 } == 3, "a refusal is not retried")
    }

    @Test("past the account bound only accounts with nothing waiting are forgotten: marks not yet sent are kept and go up")
    func boundKeepsWaitingMarks() async throws {
        let sent = Mutex<[String]>([])
        let marks = UpstreamSeenMarks(delay: .seconds(3600), cachedAccounts: 2) { uris, _ in
            sent.withLock { $0 += uris.map(\.description) }
        }
        let now = UTCTime(iso8601: "2026-12-01T12:00:00.000Z")!
        let story = { (n: Int) in try ATURI("at://did:plc:maya/social.grain.story/3k\(1000 + n)aaaaaaa") }
        marks.mark(uri: try story(1), createdAt: now, session: Self.session("did:plc:a"))
        marks.mark(uri: try story(2), createdAt: now, session: Self.session("did:plc:b"))
        await marks.flush("did:plc:a")
        #expect(sent.withLock { $0 } == [try story(1).description])

        // A third account: `a` has nothing waiting and is forgotten; `b`'s unsent mark stays.
        marks.mark(uri: try story(3), createdAt: now, session: Self.session("did:plc:c"))
        #expect(marks.state(for: "did:plc:a").uris.isEmpty, "the upstream has a's mark now")
        #expect(marks.state(for: "did:plc:b").uris == [try story(2).description])
        await marks.flushAll()
        let all = try [1, 2, 3].map { try story($0).description }
        #expect(Set(sent.withLock { $0 }) == Set(all), "nothing unsent was dropped")
    }
}
