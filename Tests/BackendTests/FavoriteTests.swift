import ATProto
import Backend
import Foundation
import Lexicon
import TestSupport
import Testing

struct FavoriteTests {
    @Test("a favourite written with createRecord shows as viewer.fav to its author only, and deleting it clears it")
    func favoriteRoundTrip() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let jonas = try f.account("jonas")
        let story = try f.story(by: maya, hoursAgo: 1)
        let fav = try await f.favorite(story, by: jonas)
        #expect(fav.authority == jonas.rawValue && fav.collection == "social.grain.favorite")

        let actor = "actor=\(encode(maya.rawValue))"
        let mine = try await f.query(StoriesOutput.self, "social.grain.unspecced.getStories", actor, as: jonas)
        #expect(mine.stories.first?.viewer?.fav == fav.description)
        let archive = try await f.query(StoriesOutput.self, "social.grain.unspecced.getStoryArchive", actor, as: jonas)
        #expect(archive.stories.first?.viewer?.fav == fav.description)
        let theirs = try await f.query(StoriesOutput.self, "social.grain.unspecced.getStories", actor, as: maya)
        #expect(theirs.stories.first?.viewer == nil, "someone else's favourite is not the author's")
        let anonymous = try await f.query(StoriesOutput.self, "social.grain.unspecced.getStories", actor)
        #expect(anonymous.stories.first?.viewer == nil)
        let single = try await f.query(StoryOutput.self, "social.grain.unspecced.getStory", "story=\(encode(story.description))", as: jonas)
        #expect(single.story?.viewer?.fav == nil, "getStory carries no viewer.fav, as in hatk")

        #expect(await f.delete(fav, as: jonas) == 200)
        let after = try await f.query(StoriesOutput.self, "social.grain.unspecced.getStories", actor, as: jonas)
        #expect(after.stories.first?.viewer == nil)
    }

    @Test("favouriting twice gives back the first favourite instead of a second record")
    func favoriteIsIdempotent() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let story = try f.story(by: maya, hoursAgo: 1)
        let first = try await f.favorite(story, by: maya)
        let second = try await f.favorite(story, by: maya)
        #expect(first == second)
        #expect(try f.backend.store.records.records(of: maya.rawValue, collection: FavoriteRecord.collection).count == 1)
    }

    @Test("a favourite without a valid AT-URI subject or createdAt is refused with InvalidRecord")
    func favoriteValidated() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let noSubject = await f.create(FavoriteRecord.collection, .object(["createdAt": .string(f.clock.now.iso8601)]), as: maya)
        #expect(noSubject.status == 400)
        #expect(noSubject.json?["error"] == .string("InvalidRecord: record/subject: is required"))
        let badSubject = await f.create(
            FavoriteRecord.collection, .object(["subject": .string("https://x.test"), "createdAt": .string(f.clock.now.iso8601)]), as: maya)
        #expect(badSubject.json?["error"] == .string("InvalidRecord: record/subject: must be an AT-URI"))
        let noDate = await f.create(
            FavoriteRecord.collection, .object(["subject": .string("at://\(maya.rawValue)/social.grain.story/3jzfcijpj2z2a")]), as: maya)
        #expect(noDate.json?["error"] == .string("InvalidRecord: record/createdAt: is required"))
    }
}
