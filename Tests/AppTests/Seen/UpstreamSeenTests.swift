import ATProto
import Foundation
import HTTPServer
import HatkClient
import Lexicon
import Storage
import Synchronization
import TestSupport
import Testing

@testable import App
@testable import FrontState

/// Viewed state the Grain way: detected from a signed-in `getStoryAuthors`, never by probing; marks sent with
/// `markStoriesViewed` in batches of at most 100; the front's own store for upstreams without it.
@Suite struct UpstreamSeenTests {
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
        let marks = UpstreamSeenMarks(delay: .milliseconds(300)) { uris, _ in sent.withLock { $0.append(uris.map(\.description)) } }
        let session = Self.session("did:plc:viewer")
        let now = UTCTime(iso8601: "2026-12-01T12:00:00.000Z")!
        let uris = ["at://did:plc:maya/social.grain.story/3kaaaaaaaaaa1", "at://did:plc:maya/social.grain.story/3kaaaaaaaaaa2"]
        for uri in uris { marks.mark(uri: try ATURI(uri), createdAt: now, session: session) }
        #expect(sent.withLock { $0.isEmpty }, "they wait for the delay")
        try await waitUntil { sent.withLock { !$0.isEmpty } }
        #expect(sent.withLock { $0 } == [uris], "one batch, without a flush asked for")
        marks.mark(uri: try ATURI("at://did:plc:maya/social.grain.story/3kaaaaaaaaaa3"), createdAt: now, session: session)
        try await waitUntil { sent.withLock { $0.count } == 2 }
        #expect(sent.withLock { $0.last } == ["at://did:plc:maya/social.grain.story/3kaaaaaaaaaa3"], "a later mark starts the next batch")
    }

    @Test("a batch the upstream could not take for a while goes again after the delay, though nothing more is marked")
    func requeueIsRescheduled() async throws {
        let attempts = Mutex<[[String]]>([])
        let marks = UpstreamSeenMarks(delay: .milliseconds(100)) { uris, _ in
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
        // flush come from them.
        try await waitUntil { attempts.withLock { $0.count } >= 1 }
        try await waitUntil { attempts.withLock { $0.count } >= 2 }
        #expect(attempts.withLock { $0 } == [[uri], [uri]])
        try await Task.sleep(for: .milliseconds(300))
        #expect(attempts.withLock { $0.count } == 2, "sent once it went through, never again")
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

    @Test("with unviewedCount in a signed-in strip, seen marks go to markStoriesViewed (never to the front's store) and read back")
    func upstreamViewedState() async throws {
        let stub = try StubHatk()
        let front = try FrontHarness(writer: stub.url)
        front.stories.content.withLock { $0.viewedState = true }
        let maya = front.stories.addAuthor(handle: "maya.home.test", count: 2, now: front.clock.now)
        let jonas = try front.visitor("jonas.home.test")
        _ = await jonas.get(SiteURL.home.path)
        #expect(front.front.seen.current == .upstream)
        let story = front.stories.story(maya, 0)
        _ = await jonas.get(SiteURL.story(did: maya.rawValue, rkey: story.rkey).path)
        let flushed = await jonas.post(SiteURL.seen.path, [("flush", "1")])
        #expect(flushed.status == .noContent)
        let sent = try #require(stub.calls("social.grain.unspecced.markStoriesViewed").first)
        #expect(sent.body["stories"] == .array([.string(story.uri)]))
        try front.front.seen.local.flush()
        let rows = try #require(front.front.sessions as? SessionStore).database.read { try $0.query("SELECT uri FROM seen_stories") }
        #expect(rows.isEmpty, "one mechanism: the front's store is not written")
        // The upstream's own state is read back: viewer.viewed, unviewedCount.
        let jonasDID = "did:plc:" + String(repeating: "j", count: 24)
        front.stories.content.withLock { $0.viewed[jonasDID] = Set($0.stories[maya.rawValue]!.map(\.uri)) }
        let home = await jonas.get(SiteURL.home.path)
        #expect(home.text.contains(#"data-story-author="\#(maya.rawValue)" data-seen="true""#))
    }

    @Test("without unviewedCount the front keeps seen marks itself and never calls markStoriesViewed")
    func noUpstreamViewedState() async throws {
        let stub = try StubHatk()
        let front = try FrontHarness(writer: stub.url)
        let maya = front.stories.addAuthor(handle: "maya.home.test", count: 1, now: front.clock.now)
        let jonas = try front.visitor("jonas.home.test")
        _ = await jonas.get(SiteURL.home.path)
        #expect(front.front.seen.current == .local)
        _ = await jonas.get(SiteURL.story(did: maya.rawValue, rkey: front.stories.story(maya, 0).rkey).path)
        _ = await jonas.post(SiteURL.seen.path, [("flush", "1")])
        try front.front.seen.local.flush()
        let rows = try #require(front.front.sessions as? SessionStore).database.read { try $0.query("SELECT uri FROM seen_stories") }
        #expect(rows.count == 1)
        #expect(stub.calls.isEmpty, "no method is tried to find out")
    }

    @Test("a new story makes its author new again with the upstream's viewed state too")
    func newStoryIsNewAgain() async throws {
        let front = try FrontHarness()
        front.stories.content.withLock { $0.viewedState = true }
        let maya = front.stories.addAuthor(handle: "maya.home.test", count: 1, now: front.clock.now)
        let jonasDID = "did:plc:" + String(repeating: "j", count: 24)
        front.stories.content.withLock { $0.viewed[jonasDID] = [$0.stories[maya.rawValue]![0].uri] }
        let jonas = try front.visitor("jonas.home.test")
        #expect((await jonas.get(SiteURL.home.path)).text.contains(#"data-seen="true""#))
        front.stories.content.withLock { content in
            var newer = content.stories[maya.rawValue]![0]
            newer.uri = newer.uri.replacingOccurrences(of: "0aaaaaa", with: "9aaaaaa")
            newer.createdAt = front.clock.now.iso8601
            content.stories[maya.rawValue]!.append(newer)
            content.authors[0].latestAt = newer.createdAt
            content.authors[0].storyCount = 2
        }
        #expect((await jonas.get(SiteURL.home.path)).text.contains(#"data-story-author="\#(maya.rawValue)" data-seen="false""#))
    }
}

/// Polls `condition` for up to two seconds.
func waitUntil(_ condition: () -> Bool) async throws {
    for _ in 0..<200 {
        if condition() { return }
        try await Task.sleep(for: .milliseconds(10))
    }
    Issue.record("condition not met in time")
}
