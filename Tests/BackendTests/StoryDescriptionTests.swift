import ATProto
import Foundation
import Lexicon
import Storage
import TestSupport
import Testing

@testable import Backend

/// Issue 26: what a story's photo shows, in its author's words, kept by the embedded backend (Grain's record has no
/// place for it) and served in its story views.
struct StoryDescriptionTests {
    func views(_ f: BackendFixture, of author: DID, as viewer: DID) async throws -> [JSONValue] {
        let answer = await f.xrpc("social.grain.unspecced.getStories", "actor=\(author.rawValue)", as: viewer)
        guard case .array(let stories)? = answer.json?["stories"] else {
            Issue.record("no stories: \(answer.status)")
            return []
        }
        return stories
    }

    @Test("the author's description and caption choice reach every story view; an empty text removes it")
    func describedStoryViews() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let jonas = try f.account("jonas")
        let story = try f.story(by: maya, hoursAgo: 1)
        try f.backend.store.stories.describeStory(story, by: maya, text: "  Ada’s first snowman, taller than she is \n", caption: true)
        let described = try await views(f, of: maya, as: jonas)
        #expect(described.first?["photoDescription"]?.stringValue == "Ada’s first snowman, taller than she is")
        #expect(described.first?["showsCaption"] == .bool(true))

        try f.backend.store.stories.describeStory(story, by: maya, text: "A snowman", caption: false)
        let plain = try await views(f, of: maya, as: jonas)
        #expect(plain.first?["photoDescription"]?.stringValue == "A snowman")
        #expect(plain.first?["showsCaption"] == nil, "set only when true")

        try f.backend.store.stories.describeStory(story, by: maya, text: "   ", caption: true)
        #expect(try await views(f, of: maya, as: jonas).first?["photoDescription"] == nil)
    }

    @Test("only a story's author may describe it, within 1,000 characters; the description goes with its story")
    func onlyTheAuthorWithinTheLimit() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let jonas = try f.account("jonas")
        let story = try f.story(by: maya, hoursAgo: 1)
        #expect(throws: BackendError.self) { try f.backend.store.stories.describeStory(story, by: jonas, text: "Not mine", caption: false) }
        let long = String(repeating: "a", count: BackendStore.maxDescription + 1)
        #expect(throws: BackendError.self) { try f.backend.store.stories.describeStory(story, by: maya, text: long, caption: false) }
        #expect(try await views(f, of: maya, as: jonas).first?["photoDescription"] == nil)

        try f.backend.store.stories.describeStory(story, by: maya, text: "Kept", caption: false)
        #expect(await f.delete(story, as: maya) == 200)
        let left = try f.backend.store.database.read { try $0.query("SELECT uri FROM story_descriptions") }
        #expect(left.isEmpty, "deleted with its story")
    }
}
