import ATProto
import Backend
import Foundation
import Lexicon
import TestSupport
import Testing

struct CommentTests {
    @Test("comments on a story come oldest first with their authors, paged by cursor, with totalCount and commentCount")
    func threadPaging() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya", displayName: "Maya")
        let jonas = try f.account("jonas")
        let story = try f.story(by: maya, hoursAgo: 2)
        for i in 0..<5 { _ = try await f.comment("comment \(i)", on: story, by: i.isMultiple(of: 2) ? jonas : maya, minutesAgo: Double(50 - i)) }
        let subject = "subject=\(encode(story.description))"
        let page1 = try await f.query(CommentThreadOutput.self, "social.grain.unspecced.getCommentThread", subject + "&limit=2")
        #expect(page1.comments.map(\.text) == ["comment 0", "comment 1"])
        #expect(page1.totalCount == 5)
        #expect(page1.comments[1].author.displayName == "Maya")
        #expect(page1.comments[0].author.handle == "jonas.home.test")
        #expect(page1.comments[0].favCount == 0)
        let cursor = try #require(page1.cursor)
        let page2 = try await f.query(
            CommentThreadOutput.self, "social.grain.unspecced.getCommentThread", subject + "&limit=2&cursor=\(encode(cursor))")
        #expect(page2.comments.map(\.text) == ["comment 2", "comment 3"])
        let page3 = try await f.query(
            CommentThreadOutput.self, "social.grain.unspecced.getCommentThread", subject + "&limit=2&cursor=\(encode(page2.cursor ?? ""))")
        #expect(page3.comments.map(\.text) == ["comment 4"])
        #expect(page3.cursor == nil, "the last page has no cursor")

        let stories = try await f.query(StoriesOutput.self, "social.grain.unspecced.getStories", "actor=\(encode(maya.rawValue))")
        #expect(stories.stories.first?.commentCount == 5)
        let single = try await f.query(StoryOutput.self, "social.grain.unspecced.getStory", "story=\(encode(story.description))")
        #expect(single.story?.commentCount == nil, "getStory sets no commentCount, as in hatk")
    }

    @Test("a comment keeps its facets; text over 300 graphemes or a facet outside the text is refused")
    func commentValidation() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let story = try f.story(by: maya, hoursAgo: 1)
        let text = "see https://grain.social"
        let facet: JSONValue = .object([
            "index": .object(["byteStart": .integer(4), "byteEnd": .integer(24)]),
            "features": .array([.object(["$type": .string("app.bsky.richtext.facet#link"), "uri": .string("https://grain.social")])]),
        ])
        func record(_ text: String, facets: [JSONValue]) -> JSONValue {
            .object([
                "text": .string(text), "subject": .string(story.description), "facets": .array(facets),
                "createdAt": .string(f.clock.now.iso8601),
            ])
        }
        #expect(await f.create(CommentRecord.collection, record(text, facets: [facet]), as: maya).status == 200)
        let thread = try await f.query(CommentThreadOutput.self, "social.grain.unspecced.getCommentThread", "subject=\(encode(story.description))")
        #expect(thread.comments.first?.facets == [facet])

        let long = await f.create(CommentRecord.collection, record(String(repeating: "a", count: 301), facets: []), as: maya)
        #expect(long.status == 400)
        #expect(long.json?["error"] == .string("InvalidRecord: record/text: is too long (at most 300 characters)"))
        let outside: JSONValue = .object([
            "index": .object(["byteStart": .integer(4), "byteEnd": .integer(99)]), "features": .array([]),
        ])
        let bad = await f.create(CommentRecord.collection, record(text, facets: [outside]), as: maya)
        #expect(bad.json?["error"] == .string("InvalidRecord: record/facets/0/index: must lie within the text"))
    }

    @Test("deleting one's own comment removes it from the thread and the count; another member's stays")
    func deleteOwnComment() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let jonas = try f.account("jonas")
        let story = try f.story(by: maya, hoursAgo: 1)
        let mine = try await f.comment("mine", on: story, by: jonas, minutesAgo: 2)
        let theirs = try await f.comment("theirs", on: story, by: maya, minutesAgo: 1)
        // deleteRecord acts in the viewer's own repo: maya naming jonas's rkey deletes nothing of his.
        #expect(await f.delete(ATURI(authority: maya.rawValue, collection: mine.collection, rkey: mine.rkey), as: maya) == 200)
        #expect(await f.delete(mine, as: jonas) == 200)
        let thread = try await f.query(CommentThreadOutput.self, "social.grain.unspecced.getCommentThread", "subject=\(encode(story.description))")
        #expect(thread.comments.map(\.uri) == [theirs.description])
        #expect(thread.totalCount == 1)
    }

    @Test("replies to a deleted comment drop out; authors blocked either way are left out; muted ones are flagged")
    func threadFiltering() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let jonas = try f.account("jonas")
        let ines = try f.account("ines")
        let story = try f.story(by: maya, hoursAgo: 1)
        let parent = try await f.comment("parent", on: story, by: jonas, minutesAgo: 5)
        _ = try await f.comment("reply", on: story, by: ines, minutesAgo: 4, replyTo: parent)
        _ = try await f.comment("from ines", on: story, by: ines, minutesAgo: 3)
        let subject = "subject=\(encode(story.description))"
        var thread = try await f.query(CommentThreadOutput.self, "social.grain.unspecced.getCommentThread", subject)
        #expect(thread.comments.map(\.text) == ["parent", "reply", "from ines"])
        #expect(await f.delete(parent, as: jonas) == 200)
        thread = try await f.query(CommentThreadOutput.self, "social.grain.unspecced.getCommentThread", subject)
        #expect(thread.comments.map(\.text) == ["from ines"], "a reply whose parent is gone is an orphan")

        _ = try await f.comment("jonas again", on: story, by: jonas, minutesAgo: 2)
        _ = try await f.block(jonas, by: maya)
        #expect(await f.post("social.grain.graph.muteActor", as: maya, json: .object(["actor": .string(ines.rawValue)])).status == 200)
        thread = try await f.query(CommentThreadOutput.self, "social.grain.unspecced.getCommentThread", subject, as: maya)
        #expect(thread.comments.map(\.text) == ["from ines"])
        #expect(thread.comments.first?.muted == true)
        let asJonas = try await f.query(CommentThreadOutput.self, "social.grain.unspecced.getCommentThread", subject, as: jonas)
        #expect(asJonas.comments.map(\.text) == ["from ines", "jonas again"], "the blocked side sees only what blocks allow")
        let anonymous = try await f.query(CommentThreadOutput.self, "social.grain.unspecced.getCommentThread", subject)
        #expect(anonymous.comments.count == 2)
        #expect(anonymous.comments.allSatisfy { $0.muted == nil })
    }
}
