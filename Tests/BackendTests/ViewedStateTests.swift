import ATProto
import Backend
import Foundation
import Lexicon
import TestSupport
import Testing

struct ViewedStateTests {
    func mark(_ f: BackendFixture, _ stories: JSONValue?, as viewer: DID?) async -> (status: Int, json: JSONValue?) {
        var input: [String: JSONValue] = [:]
        if let stories { input["stories"] = stories }
        return await f.post("social.grain.unspecced.markStoriesViewed", as: viewer, json: .object(input))
    }

    @Test("markStoriesViewed refuses what Grain refuses, with its exact errors")
    func refusals() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        #expect(await mark(f, .array([.string("at://x")]), as: nil) == (500, .object(["error": .string("Authentication required")])))
        let nonEmpty: JSONValue = .object(["error": .string("stories must be a non-empty array of AT URIs")])
        #expect(await mark(f, nil, as: maya) == (400, nonEmpty))
        #expect(await mark(f, .array([]), as: maya) == (400, nonEmpty))
        #expect(await mark(f, .string("at://x"), as: maya) == (400, nonEmpty))
        let tooMany = JSONValue.array(Array(repeating: .string("at://did:plc:x/social.grain.story/3jzfcijpj2z2a"), count: 101))
        #expect(await mark(f, tooMany, as: maya) == (400, .object(["error": .string("stories may hold at most 100 URIs")])))
        let notURIs: JSONValue = .object(["error": .string("stories must be AT URIs")])
        #expect(await mark(f, .array([.string("https://x.test")]), as: maya) == (400, notURIs))
        #expect(await mark(f, .array([.integer(3)]), as: maya) == (400, notURIs))
        #expect(
            await mark(f, .array([.string("at://did:plc:x/social.grain.story/3jzfcijpj2z2a")]), as: maya) == (200, .object([:])),
            "an unknown story is dropped silently")
    }

    @Test("watched stories carry viewer.viewed for the viewer only, and the strip counts what is left unwatched")
    func viewedState() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let jonas = try f.account("jonas")
        let first = try f.story(by: maya, hoursAgo: 3)
        let second = try f.story(by: maya, hoursAgo: 2)
        let fresh = try await f.query(StoryAuthorsOutput.self, "social.grain.unspecced.getStoryAuthors", as: jonas)
        #expect(fresh.authors.first?.unviewedCount == 2)
        #expect(fresh.authors.first?.lastViewedAt == nil)

        #expect(await mark(f, .array([.string(first.description), .string(first.description)]), as: jonas).status == 200)
        var strip = try await f.query(StoryAuthorsOutput.self, "social.grain.unspecced.getStoryAuthors", as: jonas)
        #expect(strip.authors.first?.unviewedCount == 1)
        #expect(strip.authors.first?.lastViewedAt == f.clock.now.adding(seconds: -3 * 3600).iso8601)
        let stories = try await f.query(StoriesOutput.self, "social.grain.unspecced.getStories", "actor=\(encode(maya.rawValue))", as: jonas)
        #expect(stories.stories.map { $0.viewer?.viewed } == [true, nil], "viewed is only present when true")
        let single = try await f.query(StoryOutput.self, "social.grain.unspecced.getStory", "story=\(encode(first.description))", as: jonas)
        #expect(single.story?.viewer?.viewed == true)

        _ = await mark(f, .array([.string(second.description)]), as: jonas)
        strip = try await f.query(StoryAuthorsOutput.self, "social.grain.unspecced.getStoryAuthors", as: jonas)
        #expect(strip.authors.first?.unviewedCount == 0)
        #expect(strip.authors.first?.lastViewedAt == strip.authors.first?.latestAt, "caught up")

        try f.story(by: maya, hoursAgo: 0.1)
        strip = try await f.query(StoryAuthorsOutput.self, "social.grain.unspecced.getStoryAuthors", as: jonas)
        #expect(strip.authors.first?.unviewedCount == 1, "a new story makes its author unviewed again")
        #expect(strip.authors.first?.lastViewedAt != strip.authors.first?.latestAt)

        let anonymous = try await f.query(StoryAuthorsOutput.self, "social.grain.unspecced.getStoryAuthors")
        #expect(anonymous.authors.first?.unviewedCount == nil && anonymous.authors.first?.lastViewedAt == nil)
        let others = try await f.query(StoriesOutput.self, "social.grain.unspecced.getStories", "actor=\(encode(maya.rawValue))", as: maya)
        #expect(others.stories.allSatisfy { $0.viewer?.viewed == nil }, "seen marks are private to the viewer")
    }

    @Test("seen marks go with their story, and those of stories past a week are pruned by the collection")
    func pruning() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let jonas = try f.account("jonas")
        let story = try f.story(by: maya, hoursAgo: 1)
        let other = try f.story(by: maya, hoursAgo: 2)
        _ = await mark(f, .array([.string(story.description), .string(other.description)]), as: jonas)
        #expect(await f.delete(other, as: maya) == 200)
        f.clock.advance(hours: 24 * 6)
        var report = try await f.backend.collectGarbage()
        #expect(report.viewsPruned == 0)
        f.clock.advance(hours: 24 * 1.1)
        report = try await f.backend.collectGarbage()
        #expect(report.viewsPruned == 1, "only the mark of the story still there was left to prune")
    }
}
