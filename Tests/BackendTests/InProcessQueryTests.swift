import ATProto
import Backend
import Foundation
import HTTPServer
import Lexicon
import TestSupport
import Testing

/// The front in the same process reads through `EmbeddedBackend.queries`: the same answers as over XRPC, with the
/// viewer passed in and image URLs relative when the image base is empty.
struct InProcessQueryTests {
    @Test("in-process queries answer what XRPC answers, with relative image URLs for an empty image base")
    func sameAnswers() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya", displayName: "Maya")
        let jonas = try f.account("jonas")
        let story = try f.story(by: maya, hoursAgo: 1)
        _ = try await f.favorite(story, by: jonas)
        f.clock.advance(hours: 0.01)
        _ = try await f.comment("hello", on: story, by: jonas)
        let queries = f.backend.queries

        let overHTTP = try await f.query(StoriesOutput.self, "social.grain.unspecced.getStories", "actor=\(encode(maya.rawValue))", as: jonas)
        let inProcess = try queries.stories(of: maya, viewer: jonas, imageBase: "http://stories.test")
        #expect(inProcess == overHTTP)
        let relative = try queries.stories(of: maya, viewer: jonas, imageBase: "")
        #expect(relative.stories.first?.fullsize.hasPrefix("/img/feed_fullsize/\(maya.rawValue)/") == true)
        #expect(relative.stories.first?.creator.displayName == "Maya")

        #expect(
            try queries.storyAuthors(viewer: jonas, imageBase: "http://stories.test")
                == (try await f.query(StoryAuthorsOutput.self, "social.grain.unspecced.getStoryAuthors", as: jonas)))
        #expect(
            try queries.commentThread(subject: story, viewer: nil, imageBase: "http://stories.test")
                == (try await f.query(
                    CommentThreadOutput.self, "social.grain.unspecced.getCommentThread", "subject=\(encode(story.description))")))
        #expect(
            try queries.notifications(viewer: maya, imageBase: "")
                .notifications.map(\.reason) == ["story-comment", "story-favorite"])
        #expect(try queries.story(story, viewer: nil, imageBase: "").story?.uri == story.description)
        #expect(try queries.storyArchive(of: maya, viewer: nil, imageBase: "").stories.count == 1)
        #expect(throws: BackendError.self) { try queries.actorProfile("nobody.home.test", viewer: nil, imageBase: "") }
        #expect(throws: BackendError.self) {
            try queries.record(ATURI(authority: maya.rawValue, collection: "social.grain.story", rkey: "3jzfcijpj2z2a"))
        }
    }

    @Test("without an origin the XRPC answers carry relative image URLs")
    func noOrigin() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("backend-\(UUID().uuidString)").path
        let backend = try EmbeddedBackend(dataDirectory: directory)
        let maya = try backend.store.accounts.createAccount(handle: "maya.home.test", now: .now).did
        var router = Router()
        backend.register(on: &router)
        let jpeg = try BackendFixture.jpeg(width: 10, height: 10)
        let blob = try backend.blobs.store(jpeg, mimeType: "image/jpeg")
        try backend.store.blobs.recordBlob(did: maya, cid: blob.cid, mimeType: "image/jpeg", size: blob.size, now: .now)
        let record = StoryRecord(
            media: BlobRef(cid: blob.cid, mimeType: "image/jpeg", size: blob.size), aspectRatio: AspectRatio(width: 1, height: 1),
            createdAt: UTCTime.now.iso8601)
        try backend.store.records.putRecord(did: maya, collection: StoryRecord.collection, value: try JSONValue(encoding: record), now: .now)
        let response = await router.respond(
            to: Request(method: .get, path: "/xrpc/social.grain.unspecced.getStories", query: "actor=\(encode(maya.rawValue))"))
        guard case .bytes(let bytes) = response.body else { Issue.record("no body"); return }
        let output = try JSONDecoder().decode(StoriesOutput.self, from: Data(bytes))
        #expect(output.stories.first?.thumb.hasPrefix("/img/feed_thumbnail/") == true)
    }
}
