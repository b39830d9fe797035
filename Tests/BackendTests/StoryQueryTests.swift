import ATProto
import Backend
import Foundation
import Lexicon
import TestSupport
import Testing

struct StoryQueryTests {
    @Test("the strip lists authors with stories from the last 24 hours, newest first, with counts")
    func storyAuthorsWindowAndOrder() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya", displayName: "Maya")
        let jonas = try f.account("jonas")
        let old = try f.account("old")
        try f.story(by: maya, hoursAgo: 20)
        try f.story(by: maya, hoursAgo: 2)
        try f.story(by: jonas, hoursAgo: 1)
        try f.story(by: old, hoursAgo: 24.01)

        let (status, json, _) = await f.xrpc("social.grain.unspecced.getStoryAuthors")
        #expect(status == 200)
        let output = try #require(try json?.decode(as: StoryAuthorsOutput.self))
        #expect(output.authors.map(\.profile.did) == [jonas.rawValue, maya.rawValue])
        #expect(output.authors.map(\.storyCount) == [1, 2])
        #expect(output.authors[1].profile.displayName == "Maya")
        #expect(output.authors[0].profile.cid == "", "an author without a profile record gets an empty cid")
        #expect(output.authors[0].profile.handle == "jonas.home.test")
        #expect(output.authors[1].latestAt == f.clock.now.adding(seconds: -7200).iso8601)
    }

    @Test("the window is computed at query time: a story drops out once 24 hours have passed")
    func windowMovesWithTheClock() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        try f.story(by: maya, hoursAgo: 23)
        #expect(try f.backend.store.stories.storyAuthors(now: f.clock.now).count == 1)
        f.clock.advance(hours: 1.01)
        let (_, json, _) = await f.xrpc("social.grain.unspecced.getStoryAuthors")
        #expect(json?["authors"] == .array([]))
        let stories = await f.xrpc("social.grain.unspecced.getStories", "actor=\(encode(maya.rawValue))")
        #expect(stories.json?["stories"] == .array([]))
    }

    @Test("an author's stories come oldest first with full views and no $type")
    func getStoriesShape() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya", displayName: "Maya")
        let second = try f.story(by: maya, hoursAgo: 3, width: 1500, height: 2000)
        let first = try f.story(by: maya, hoursAgo: 10)
        let (status, json, _) = await f.xrpc("social.grain.unspecced.getStories", "actor=\(encode(maya.rawValue))")
        #expect(status == 200)
        let stories = try #require(try json?.decode(as: StoriesOutput.self)).stories
        #expect(stories.map(\.uri) == [first.description, second.description])
        let view = stories[1]
        #expect(view.aspectRatio == AspectRatio(width: 1500, height: 2000))
        #expect(view.expired == false)
        #expect(view.commentCount == 0)
        #expect(view.creator.did == maya.rawValue)
        #expect(view.fullsize.hasPrefix("http://stories.test/img/feed_fullsize/\(maya.rawValue)/bafkrei"))
        #expect(view.thumb.hasPrefix("http://stories.test/img/feed_thumbnail/"))
        guard case .array(let raw)? = json?["stories"], case .object(let first)? = raw.first else {
            Issue.record("stories is not an array of objects")
            return
        }
        #expect(first["$type"] == nil)
        #expect(first["uri"] != nil && first["cid"] != nil && first["createdAt"] != nil)
    }

    @Test("the record CID is the DAG-CBOR CID of the stored record")
    func recordCIDIsReal() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let uri = try f.story(by: maya, hoursAgo: 1)
        let stored = try #require(try f.backend.store.records.record(uri))
        #expect(stored.cid == (try DAGCBOR.cid(of: stored.value)).description)
        #expect(stored.cid.hasPrefix("bafyrei"))
        #expect((try? TID(uri.rkey)) != nil, "record keys are TIDs")
    }

    @Test("stories self-labelled gore, !hide or !takedown are served by no query, yet the strip counts them as hatk does at a312914")
    func hiddenLabels() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        var hidden: [ATURI] = []
        for (i, label) in ["gore", "!hide", "!takedown"].enumerated() {
            hidden.append(try f.story(by: maya, hoursAgo: 1 + Double(i) * 0.1, labels: [label]))
        }
        try f.story(by: maya, hoursAgo: 2, labels: ["nudity"])
        let authors = try #require(try await f.xrpc("social.grain.unspecced.getStoryAuthors").json?.decode(as: StoryAuthorsOutput.self))
        #expect(authors.authors.first?.storyCount == 4, "getStoryAuthors at a312914 does not look at self-labels")
        let stories = try #require(
            try await f.xrpc("social.grain.unspecced.getStories", "actor=\(encode(maya.rawValue))").json?.decode(as: StoriesOutput.self))
        #expect(stories.stories.count == 1)
        #expect(stories.stories[0].labels?.map(\.val) == ["nudity"])
        let archive = try #require(
            try await f.xrpc("social.grain.unspecced.getStoryArchive", "actor=\(encode(maya.rawValue))").json?.decode(as: StoriesOutput.self))
        #expect(archive.stories.map(\.uri) == stories.stories.map(\.uri))
        for uri in hidden {
            let single = await f.xrpc("social.grain.unspecced.getStory", "story=\(encode(uri.description))")
            #expect(single.status == 200)
            #expect(single.json == .object([:]), "getStory answers {} for \(uri)")
            let record = await f.xrpc("dev.hatk.getRecord", "uri=\(encode(uri.description))")
            #expect(record.status == 404)
            #expect(record.json == .object(["error": .string("Record not found")]))
        }
    }

    @Test("getStory returns expired stories without expired or commentCount, {} when missing, 400 when malformed")
    func getStoryBehaviour() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let old = try f.story(by: maya, hoursAgo: 30)
        let found = await f.xrpc("social.grain.unspecced.getStory", "story=\(encode(old.description))")
        #expect(found.status == 200)
        #expect(found.json?["story"]?["uri"]?.stringValue == old.description)
        #expect(found.json?["story"]?["expired"] == nil)
        #expect(found.json?["story"]?["commentCount"] == nil)
        let byHandle = await f.xrpc("social.grain.unspecced.getStory", "story=\(encode("at://maya.home.test/social.grain.story/\(old.rkey)"))")
        #expect(byHandle.json?["story"]?["uri"]?.stringValue == old.description, "a handle in the URI is resolved")
        let missing = await f.xrpc("social.grain.unspecced.getStory", "story=\(encode("at://\(maya.rawValue)/social.grain.story/3jzfcijpj2z2a"))")
        #expect(missing.status == 200)
        #expect(missing.json == .object([:]))
        let malformed = await f.xrpc("social.grain.unspecced.getStory", "story=not-a-uri")
        #expect(malformed.status == 400)
        #expect(malformed.json?["error"]?.stringValue?.isEmpty == false)
    }

    @Test("the archive pages newest first with a createdAt cursor and marks expired stories")
    func archivePaging() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        for hours in [1.0, 5, 26, 50, 80] { try f.story(by: maya, hoursAgo: hours) }
        let page1 = try #require(
            try await f.xrpc("social.grain.unspecced.getStoryArchive", "actor=\(encode(maya.rawValue))&limit=2").json?.decode(as: StoriesOutput.self))
        #expect(page1.stories.count == 2)
        #expect(page1.stories.map { $0.expired } == [false, false])
        let cursor = try #require(page1.cursor)
        let page2 = try #require(
            try await f.xrpc("social.grain.unspecced.getStoryArchive", "actor=\(encode(maya.rawValue))&limit=2&cursor=\(encode(cursor))").json?
                .decode(as: StoriesOutput.self))
        #expect(page2.stories.map { $0.expired } == [true, true])
        let page3 = try #require(
            try await f.xrpc("social.grain.unspecced.getStoryArchive", "actor=\(encode(maya.rawValue))&limit=2&cursor=\(encode(page2.cursor ?? ""))")
                .json?.decode(as: StoriesOutput.self))
        #expect(page3.stories.count == 1)
        #expect(page3.cursor == nil, "the last page has no cursor")
        let all = page1.stories + page2.stories + page3.stories
        #expect(all.map(\.createdAt) == all.map(\.createdAt).sorted(by: >))
        let bad = await f.xrpc("social.grain.unspecced.getStoryArchive", "actor=\(encode(maya.rawValue))&limit=many")
        #expect(bad.status == 400)
    }
}
