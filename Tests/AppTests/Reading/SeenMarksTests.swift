import ATProto
import HTTPServer
import Lexicon
import Storage
import Synchronization
import TestSupport
import Testing

@testable import App
@testable import FrontState

@Suite struct SeenMarksTests {
    @Test("a served story is seen at once for its reader, and written to the database in one batch afterwards")
    func marksAreVisibleAtOnceAndWrittenLater() async throws {
        let front = try FrontHarness()
        let did = front.stories.addAuthor(handle: "maya.home.test", count: 2, now: front.clock.now)
        let viewer = try front.signIn(did: DID("did:plc:jonasjonasjonasjonasjona"), handle: "jonas.home.test")
        let story = try #require(front.stories.content.withLock { $0.stories[did.rawValue]?.first })
        let page = await front.send(.get, "/profile/\(did.rawValue)/story/\(story.rkey)", headers: [("Cookie", "gs_session=\(viewer)")])
        #expect(page.status == .ok)
        let state = try front.front.seen.state(for: "did:plc:jonasjonasjonasjonasjona")
        #expect(state.uris.contains(story.uri))
        try front.front.seen.local.flush()
        let rows = try #require(front.front.sessions as? SessionStore).database.read { try $0.query("SELECT uri FROM seen_stories") }
        #expect(rows.compactMap { $0.string("uri") } == [story.uri])
    }

    @Test("a seen mark from the script keeps the story's own time, whatever the request claims, and needs a real story")
    func seenMarkTakesTheStorysTime() async throws {
        let front = try FrontHarness()
        let did = front.stories.addAuthor(handle: "maya.home.test", count: 1, now: front.clock.now)
        let viewer = try front.signIn(did: DID("did:plc:jonasjonasjonasjonasjona"), handle: "jonas.home.test")
        let story = try #require(front.stories.content.withLock { $0.stories[did.rawValue]?.first })
        let token = String(repeating: "d", count: 43)
        let headers = [
            ("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", "gs_session=\(viewer); gs_csrf=\(token)"),
            ("Origin", "http://box.local:8080"),
        ]
        let future = "2099-01-01T00:00:00.000Z"
        let marked = await front.send(.post, "/api/seen", headers: headers, body: Array("csrf=\(token)&uri=\(story.uri)&createdAt=\(future)".utf8))
        #expect(marked.status == .noContent)
        let invented = "at://\(did.rawValue)/social.grain.story/3kzzzzzzzzzzz"
        let refused = await front.send(.post, "/api/seen", headers: headers, body: Array("csrf=\(token)&uri=\(invented)".utf8))
        #expect(refused.status == .notFound)
        try front.front.seen.local.flush()
        let rows = try #require(front.front.sessions as? SessionStore).database.read { try $0.query("SELECT uri, created_at FROM seen_stories") }
        #expect(rows.count == 1)
        #expect(rows.first?.int("created_at").map(Int64.init) == UTCTime(iso8601: story.createdAt)?.microseconds)
    }

    @Test("pruning forgets marks of stories older than two days")
    func pruning() async throws {
        let front = try FrontHarness()
        let uri = try ATURI("at://did:plc:mayamayamayamayamayamaya/social.grain.story/3kaaaaaaaaaaa")
        front.front.seen.local.mark(uri: uri, createdAt: front.clock.now, account: "did:plc:x", now: front.clock.now)
        try front.front.seen.local.flush()
        front.clock.advance(hours: 49)
        try front.front.prune(now: front.clock.now)
        #expect(try front.front.seen.state(for: "did:plc:x").uris.isEmpty)
    }
}
