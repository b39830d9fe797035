import ATProto
import Foundation
import HTTPServer
import Lexicon
import Storage
import Synchronization
import TestSupport
import Testing

@testable import App
@testable import FrontState

/// Viewed state the Grain way: detected from a signed-in `getStoryAuthors`, never by probing; marks sent with
/// `markStoriesViewed` for upstreams with it, the front's own store for upstreams without it. (The batches
/// themselves: `FrontStateTests.UpstreamSeenMarksTests`.)
@Suite struct UpstreamSeenTests {
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
