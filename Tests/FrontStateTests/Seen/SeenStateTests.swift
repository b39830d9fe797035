import ATProto
import Lexicon
import Testing

@testable import FrontState

struct SeenStateTests {
    static let now = UTCTime(iso8601: "2026-08-19T12:00:00.000Z")!

    static func author(_ did: String, latest hoursAgo: Double) -> StoryAuthor {
        StoryAuthor(
            profile: ProfileView(cid: "c", did: did, handle: did.dropFirst(8) + ".test"), storyCount: 2,
            latestAt: now.adding(seconds: -hoursAgo * 3600).iso8601)
    }

    static func story(_ did: String, _ rkey: String, hoursAgo: Double) -> StoryView {
        StoryView(
            uri: "at://\(did)/social.grain.story/\(rkey)", cid: "c", creator: ProfileView(cid: "c", did: did, handle: "x.test"),
            thumb: "", fullsize: "", aspectRatio: AspectRatio(width: 1, height: 1),
            createdAt: now.adding(seconds: -hoursAgo * 3600).iso8601)
    }

    @Test("authors whose newest story was seen sort after the others, each group in the server's order")
    func ordering() {
        let authors = [Self.author("did:plc:aaa", latest: 1), Self.author("did:plc:bbb", latest: 2), Self.author("did:plc:ccc", latest: 3)]
        var seen = SeenState()
        seen.insert(uri: "at://did:plc:aaa/social.grain.story/a2", author: "did:plc:aaa", createdAt: Self.now.adding(seconds: -3600))
        #expect(seen.ordered(authors).map(\.profile.did) == ["did:plc:bbb", "did:plc:ccc", "did:plc:aaa"])
        #expect(seen.hasSeenAll(of: authors[0]))
        #expect(!seen.hasSeenAll(of: authors[1]))
    }

    @Test("a newer story makes a seen author unseen again")
    func newStoryUnseen() {
        var seen = SeenState()
        seen.insert(uri: "at://did:plc:aaa/social.grain.story/a1", author: "did:plc:aaa", createdAt: Self.now.adding(seconds: -7200))
        #expect(seen.hasSeenAll(of: Self.author("did:plc:aaa", latest: 2)))
        #expect(!seen.hasSeenAll(of: Self.author("did:plc:aaa", latest: 0.5)))
    }

    @Test("reopening starts at the first unseen story, or the first when all were seen")
    func resume() {
        let stories = ["s1", "s2", "s3"].enumerated().map { Self.story("did:plc:aaa", $1, hoursAgo: Double(3 - $0)) }
        var seen = SeenState()
        #expect(seen.startIndex(in: stories) == 0)
        seen.insert(uri: stories[0].uri, author: "did:plc:aaa", createdAt: UTCTime(iso8601: stories[0].createdAt)!)
        seen.insert(uri: stories[1].uri, author: "did:plc:aaa", createdAt: UTCTime(iso8601: stories[1].createdAt)!)
        #expect(seen.startIndex(in: stories) == 2)
        seen.insert(uri: stories[2].uri, author: "did:plc:aaa", createdAt: UTCTime(iso8601: stories[2].createdAt)!)
        #expect(seen.startIndex(in: stories) == 0)
    }

    @Test("an older seen mark never lowers the newest seen time")
    func newestKept() {
        var seen = SeenState()
        seen.insert(uri: "at://did:plc:aaa/social.grain.story/new", author: "did:plc:aaa", createdAt: Self.now)
        seen.insert(uri: "at://did:plc:aaa/social.grain.story/old", author: "did:plc:aaa", createdAt: Self.now.adding(seconds: -9000))
        #expect(seen.newestSeen["did:plc:aaa"] == Self.now)
    }
}
