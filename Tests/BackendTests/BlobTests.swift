import ATProto
import Backend
import Foundation
import HTTPServer
import Imaging
import Testing

struct BlobTests {
    @Test("blobs are stored under their CID with a thumbnail and a square avatar made at write time")
    func variantsAtWriteTime() throws {
        let f = try BackendFixture()
        let jpeg = try BackendFixture.jpeg(width: 1200, height: 1600)
        let blob = try f.backend.blobs.store(jpeg, mimeType: "image/jpeg")
        #expect(blob.cid == CID(hashing: jpeg, codec: .raw).description)
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: f.backend.blobs.path(cid: blob.cid, preset: .fullsize))))
        #expect(original == jpeg)
        let thumb = try Imaging.readInfo([UInt8](Data(contentsOf: URL(fileURLWithPath: f.backend.blobs.path(cid: blob.cid, preset: .thumbnail)))))
        #expect(max(thumb.width, thumb.height) == BlobStore.thumbnailEdge)
        #expect(thumb.width * 4 == thumb.height * 3)
        let avatar = try Imaging.readInfo([UInt8](Data(contentsOf: URL(fileURLWithPath: f.backend.blobs.path(cid: blob.cid, preset: .avatar)))))
        #expect(avatar.width == BlobStore.avatarSize && avatar.height == BlobStore.avatarSize)
        #expect(try FileManager.default.contentsOfDirectory(atPath: f.directory + "/tmp").isEmpty, "no temporary files are left")
    }

    @Test("an image upload that does not decode is refused and nothing is stored")
    func corruptImageRefused() throws {
        let f = try BackendFixture()
        let garbage: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x41, count: 500)
        #expect(throws: BlobStore.BlobError.self) { try f.backend.blobs.store(garbage, mimeType: "image/jpeg") }
        #expect(!FileManager.default.fileExists(atPath: f.backend.blobs.path(cid: CID(hashing: garbage, codec: .raw).description, preset: .fullsize)))
    }

    @Test("image URLs serve JPEG cached for a story's life plus an hour, never immutable, with nosniff; unknown blobs are 404")
    func imageRoute() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let uri = try f.story(by: maya, hoursAgo: 1)
        let stored = try #require(try f.backend.store.records.record(uri))
        let cid = try #require(stored.value["media"]?["ref"]?["$link"]?.stringValue)
        for preset in BlobStore.Preset.ofPhotos {
            let (status, _, response) = await f.get("/img/\(preset.rawValue)/\(maya.rawValue)/\(cid)")
            #expect(status == 200)
            #expect(response.headers["Content-Type"] == "image/jpeg")
            #expect(response.headers["Cache-Control"] == "public, max-age=90000", "25 hours: a deleted story's image leaves caches by then")
            #expect(response.headers["Cache-Control"]?.contains("immutable") == false)
            #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        }
        let other = try f.account("other")
        #expect(await f.get("/img/feed_fullsize/\(other.rawValue)/\(cid)").status == 404, "a blob is served only under its owner")
        #expect(await f.get("/img/feed_fullsize/\(maya.rawValue)/bafkreinotacid").status == 404)
        #expect(await f.get("/img/original/\(maya.rawValue)/\(cid)").status == 404)
        #expect(await f.get("/img/feed_fullsize/\(maya.rawValue)/..%2F..%2Fbackend.sqlite").status == 404)
    }
}
