import ATProto
import Backend
import Foundation
import Lexicon
import TestSupport
import Testing

/// The backend keeps the household's comment and favourite rules for direct `createRecord` calls, not only the front.
struct SocialRulesTests {
    func commentRecord(on subject: String, _ f: BackendFixture) -> JSONValue {
        .object(["text": .string("hello"), "subject": .string(subject), "createdAt": .string(f.clock.now.iso8601)])
    }

    /// What the commenter's and favouriter's repos hold, to show a refusal wrote nothing.
    func written(by did: DID, _ f: BackendFixture) throws -> Int {
        try f.backend.store.records.records(of: did.rawValue, collection: CommentRecord.collection).count
            + f.backend.store.records.records(of: did.rawValue, collection: FavoriteRecord.collection).count
    }

    @Test("a comment on a story past its 24 hours is refused with a 400 that says so, and nothing is written")
    func commentOnExpiredStoryIsRefused() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let jonas = try f.account("jonas")
        let old = try f.story(by: maya, hoursAgo: 25)
        let live = try f.story(by: maya, hoursAgo: 23)
        let refused = await f.create(CommentRecord.collection, commentRecord(on: old.description, f), as: jonas)
        #expect(refused.status == 400)
        #expect(refused.json?["error"] == .string("InvalidRequest"))
        #expect(refused.json?["message"]?.stringValue?.contains("expired") == true)
        #expect(try written(by: jonas, f) == 0)
        #expect(await f.create(CommentRecord.collection, commentRecord(on: live.description, f), as: jonas).status == 200)
    }

    @Test("a comment on a story that is not there, or on something that is not a story, is refused")
    func commentOnMissingStoryIsRefused() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let jonas = try f.account("jonas")
        let story = try f.story(by: maya, hoursAgo: 1)
        let missing = ATURI(authority: maya.rawValue, collection: StoryRecord.collection, rkey: "3lzzzzzzzzzzz")
        let profile = ATURI(authority: maya.rawValue, collection: ProfileRecord.collection, rkey: "self")
        for subject in [missing, profile] {
            let refused = await f.create(CommentRecord.collection, commentRecord(on: subject.description, f), as: jonas)
            #expect(refused.status == 400, "\(subject)")
            #expect(refused.json?["message"]?.stringValue?.contains("no story") == true, "\(subject)")
        }
        #expect(await f.delete(story, as: maya) == 200)
        let deleted = await f.create(CommentRecord.collection, commentRecord(on: story.description, f), as: jonas)
        #expect(deleted.status == 400)
        #expect(try written(by: jonas, f) == 0)
    }

    @Test("a comment between a story's author and someone either of them blocks is refused, and nothing is written")
    func commentAcrossABlockIsRefused() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let jonas = try f.account("jonas")
        let ines = try f.account("ines")
        let kim = try f.account("kim")
        let story = try f.story(by: maya, hoursAgo: 1)
        _ = try await f.block(jonas, by: maya)
        _ = try await f.block(maya, by: ines)
        for commenter in [jonas, ines] {
            let refused = await f.create(CommentRecord.collection, commentRecord(on: story.description, f), as: commenter)
            #expect(refused.status == 400)
            #expect(refused.json?["error"] == .string("InvalidRequest"))
            #expect(refused.json?["message"]?.stringValue?.contains("block") == true)
            #expect(try written(by: commenter, f) == 0)
        }
        #expect(await f.create(CommentRecord.collection, commentRecord(on: story.description, f), as: kim).status == 200)
    }

    @Test("a favourite between a story's author and someone either of them blocks is refused, and nothing is written")
    func favoriteAcrossABlockIsRefused() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let jonas = try f.account("jonas")
        let kim = try f.account("kim")
        let story = try f.story(by: maya, hoursAgo: 1)
        _ = try await f.block(jonas, by: maya)
        let record: JSONValue = .object(["subject": .string(story.description), "createdAt": .string(f.clock.now.iso8601)])
        let refused = await f.create(FavoriteRecord.collection, record, as: jonas)
        #expect(refused.status == 400)
        #expect(refused.json?["message"]?.stringValue?.contains("block") == true)
        #expect(try written(by: jonas, f) == 0)
        #expect(await f.create(FavoriteRecord.collection, record, as: kim).status == 200)
    }
}
