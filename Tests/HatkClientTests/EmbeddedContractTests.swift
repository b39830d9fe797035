import ATProto
import Backend
import BackendFixtures
import Crypto
import Foundation
import HTTPServer
import HatkClient
import Imaging
import Lexicon
import Readers
import Synchronization
import Testing

/// The embedded backend served on loopback and called through HatkClient, as the front calls a remote hatk.
@Suite(.serialized)
struct EmbeddedContractTests {
    @Test("favourite, comment, report, mute, block, seen marks and notifications round-trip through HatkClient and the embedded backend")
    func roundTrip() async throws {
        let port = Mutex<UInt16>(0)
        let origin: @Sendable () -> String = { "http://127.0.0.1:\(port.withLock { $0 })" }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("contract-\(UUID().uuidString)").path
        let backend = try EmbeddedBackend(
            dataDirectory: directory, authenticator: ProofCheckingAuthenticator(origin: origin), origin: { _ in origin() })
        let stub = try StubServer { router in backend.register(on: &router) }
        port.withLock { $0 = stub.server.port }
        defer { Task { await stub.server.shutdown() } }

        let maya = try backend.store.accounts.createAccount(handle: "maya.home.test", now: .now).did
        let jonas = try backend.store.accounts.createAccount(handle: "jonas.home.test", now: .now).did
        let client = HatkClient(baseURL: stub.url, policy: stub.policy)
        let (asMaya, asJonas) = (ProofCheckingAuthenticator.credentials(maya), ProofCheckingAuthenticator.credentials(jonas))
        let now = { UTCTime.now.iso8601 }

        // Maya posts a story through the client, as the front does.
        var pixels = [UInt8](repeating: 90, count: 32 * 24 * 3)
        pixels[0] = 255
        let jpeg = try Imaging.encodeJPEG(RGBImage(width: 32, height: 24, pixels: pixels), quality: 80)
        let blob = try await client.uploadBlob(jpeg, mimeType: "image/jpeg", as: asMaya)
        let record = try JSONValue(encoding: StoryRecord(media: blob, aspectRatio: AspectRatio(width: 32, height: 24), createdAt: now()))
        let story = try ATURI(try await client.createRecord(collection: StoryRecord.collection, record: record, as: asMaya).uri)

        let fav = try await client.favorite(story, createdAt: now(), as: asJonas)
        _ = try await client.comment("lovely light", on: story, createdAt: now(), as: asJonas)
        let stories = try await client.reading(as: { asJonas }).stories(of: maya)
        #expect(stories.first?.viewer?.fav == fav.uri, "the signed read is personalised")
        #expect(stories.first?.commentCount == 1)
        #expect(try await client.reader.stories(of: maya).first?.viewer == nil)
        let thread = try await client.reader.commentThread(on: story, limit: 20, cursor: nil)
        #expect(thread.comments.map(\.text) == ["lovely light"])

        try await client.markStoriesViewed([story], as: asJonas)
        let strip = try await client.reading(as: { asJonas }).storyAuthors()
        #expect(strip.first?.unviewedCount == 0, "viewed state is detected by unviewedCount on a signed-in strip")
        #expect(try await client.reader.storyAuthors().first?.unviewedCount == nil)

        let notifications = try await client.reading(as: { asMaya }).notifications(limit: 20, cursor: nil, countOnly: false)
        #expect(notifications.notifications.map(\.reason).sorted() == ["story-comment", "story-favorite"])
        #expect(notifications.unseenCount == 2)
        try await client.markNotificationsSeen(at: UTCTime.now.adding(seconds: 1).iso8601, as: asMaya)
        #expect(try await client.reading(as: { asMaya }).notifications(limit: 20, cursor: nil, countOnly: true).unseenCount == 0)

        let report = try await client.createReport(.record(uri: story.description, cid: stories[0].cid), label: "other", reason: "test", as: asJonas)
        #expect(report.reportedBy == jonas.rawValue)
        #expect(try await client.reader.labelDefinitions().count == 8)

        try await client.muteActor(maya, as: asJonas)
        #expect(try await client.reading(as: { asJonas }).storyAuthors().isEmpty)
        #expect(try await client.reading(as: { asJonas }).mutes(limit: 50, cursor: nil).items.map(\.did) == [maya.rawValue])
        try await client.unmuteActor(maya, as: asJonas)
        let block = try await client.block(maya, createdAt: now(), as: asJonas)
        #expect(try await client.reading(as: { asJonas }).profile("maya.home.test")?.viewer?.blocking == block.uri)
        #expect(try await client.reading(as: { asJonas }).storyAuthors().isEmpty)
        try await client.unblock(try ATURI(block.uri), as: asJonas)
        #expect(try await client.reading(as: { asJonas }).storyAuthors().count == 1)
        try await client.unfavorite(try ATURI(fav.uri), as: asJonas)
        #expect(try await client.reading(as: { asJonas }).stories(of: maya).first?.viewer?.fav == nil)

        do {
            try await client.muteActor(maya, as: asMaya)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .http(status: 500, error: "Cannot mute yourself"))
        }
        do {
            try await client.muteActor(jonas, as: DPoPCredentials(dpopKey: P256PrivateKey().rawRepresentation, accessToken: "forged"))
            Issue.record("expected an error")
        } catch {
            #expect(error.needsSignIn, "no viewer: hatk's 500 Authentication required")
        }
    }
}
