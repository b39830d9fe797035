import ATProto
import Backend
import Foundation
import Lexicon
import TestSupport
import Testing

struct BlobLifecycleTests {
    func media(_ f: BackendFixture, _ uri: ATURI) throws -> String {
        try #require(try f.backend.store.records.record(uri)?.value["media"]?["ref"]?["$link"]?.stringValue)
    }

    func filesExist(_ f: BackendFixture, _ cid: String) -> [Bool] {
        BlobStore.Preset.ofPhotos.map { FileManager.default.fileExists(atPath: f.backend.blobs.path(cid: cid, preset: $0)) }
    }

    @Test("deleting a story deletes its blob row and files, thumbnails included, so its image URL stops working")
    func deleteStoryDeletesBlob() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let story = try f.story(by: maya, hoursAgo: 1)
        let cid = try media(f, story)
        #expect(filesExist(f, cid) == [true, true, true])
        #expect(await f.delete(story, as: maya) == 200)
        #expect(try f.backend.store.blobs.blobMimeType(did: maya.rawValue, cid: cid) == nil)
        #expect(filesExist(f, cid) == [false, false, false])
        #expect(await f.get("/img/feed_thumbnail/\(maya.rawValue)/\(cid)").status == 404)
    }

    @Test("a blob another record of the account or another account still uses is kept")
    func sharedBlobsKept() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let jonas = try f.account("jonas")
        let story = try f.story(by: maya, hoursAgo: 1)
        let cid = try media(f, story)
        // A second story of maya's with the same photo.
        let again = try f.backend.store.records.putRecord(
            did: maya, collection: StoryRecord.collection, value: try #require(try f.backend.store.records.record(story)).value, now: f.clock.now)
        // Jonas uploads the same bytes: one set of files, two owners.
        try f.backend.store.blobs.recordBlob(did: jonas, cid: cid, mimeType: "image/jpeg", size: 1, now: f.clock.now)
        let second = try f.backend.store.records.putRecord(
            did: jonas, collection: StoryRecord.collection, value: try #require(try f.backend.store.records.record(story)).value, now: f.clock.now)

        #expect(await f.delete(story, as: maya) == 200)
        #expect(try f.backend.store.blobs.blobMimeType(did: maya.rawValue, cid: cid) == "image/jpeg", "her other story still uses it")
        #expect(await f.delete(try ATURI(again.uri), as: maya) == 200)
        #expect(try f.backend.store.blobs.blobMimeType(did: maya.rawValue, cid: cid) == nil)
        #expect(filesExist(f, cid) == [true, true, true], "jonas owns the same bytes")
        #expect(await f.delete(try ATURI(second.uri), as: jonas) == 200)
        #expect(filesExist(f, cid) == [false, false, false])
    }

    @Test("replacing a profile's avatar deletes the old avatar blob")
    func replacedAvatar() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        func upload(_ seed: Int) async throws -> JSONValue {
            let jpeg = try BackendFixture.jpeg(width: 64, height: 64, seed: seed)
            return try #require(await f.post("dev.hatk.uploadBlob", as: maya, contentType: "image/jpeg", body: jpeg).json?["blob"])
        }
        func put(_ avatar: JSONValue) async -> Int {
            await f.post(
                "dev.hatk.putRecord", as: maya,
                json: .object([
                    "collection": .string(ProfileRecord.collection), "rkey": .string("self"), "record": .object(["avatar": avatar]),
                ])
            ).status
        }
        let old = try await upload(1)
        #expect(await put(old) == 200)
        let new = try await upload(2)
        #expect(await put(new) == 200)
        let oldCID = try #require(old["ref"]?["$link"]?.stringValue)
        #expect(try f.backend.store.blobs.blobMimeType(did: maya.rawValue, cid: oldCID) == nil)
        #expect(filesExist(f, oldCID) == [false, false, false])
        #expect(try f.backend.store.blobs.blobMimeType(did: maya.rawValue, cid: try #require(new["ref"]?["$link"]?.stringValue)) != nil)
    }

    @Test("an upload no record references is collected once an hour has passed, not before")
    func orphanUploadsCollected() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let kept = try f.story(by: maya, hoursAgo: 0)
        let jpeg = try BackendFixture.jpeg(width: 30, height: 30, seed: 7)
        let blob = try #require(await f.post("dev.hatk.uploadBlob", as: maya, contentType: "image/jpeg", body: jpeg).json?["blob"])
        let cid = try #require(blob["ref"]?["$link"]?.stringValue)

        f.clock.advance(hours: 0.9)
        var report = try await f.backend.collectGarbage()
        #expect(report.orphanUploads == 0)
        #expect(filesExist(f, cid) == [true, true, true], "within the grace period the record may still come")
        f.clock.advance(hours: 0.2)
        report = try await f.backend.collectGarbage()
        #expect(report.orphanUploads == 1)
        #expect(report.filesRemoved == 1)
        #expect(filesExist(f, cid) == [false, false, false])
        #expect(try f.backend.store.blobs.blobMimeType(did: maya.rawValue, cid: cid) == nil)
        #expect(filesExist(f, try media(f, kept)) == [true, true, true], "referenced blobs stay however old")
    }

    @Test("files without any owner's row (a removal that failed) are swept by the collection")
    func ownerlessFilesSwept() async throws {
        let f = try BackendFixture()
        let stray = try f.backend.blobs.store(try BackendFixture.jpeg(width: 20, height: 20, seed: 3), mimeType: "image/jpeg")
        #expect(filesExist(f, stray.cid) == [true, true, true])
        let report = try await f.backend.collectGarbage()
        #expect(report.filesRemoved == 1)
        #expect(filesExist(f, stray.cid) == [false, false, false])
    }
}
