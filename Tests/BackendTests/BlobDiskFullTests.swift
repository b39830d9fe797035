import ATProto
import Backend
import Foundation
import Imaging
import Synchronization
import Testing

/// A full disk while a blob is written: a clear 507 and nothing half-written.
struct BlobDiskFullTests {
    /// A JPEG of noise: it barely compresses, so its size is predictable (about 1 byte per pixel at quality 90).
    static func noiseJPEG(width: Int, height: Int, seed: UInt64 = 1) throws -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for i in pixels.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            pixels[i] = UInt8(truncatingIfNeeded: state >> 56)
        }
        return try Imaging.encodeJPEG(RGBImage(width: width, height: height, pixels: pixels), quality: 90)
    }

    /// Every file under the data directory's blob and temporary folders whose name mentions `cid`, plus any
    /// temporary file at all.
    static func leftovers(_ f: BackendFixture, cid: String) throws -> [String] {
        let files = FileManager.default
        let blobs = try files.contentsOfDirectory(atPath: f.directory + "/blobs").filter { $0.contains(cid) }
        let temporary = try files.contentsOfDirectory(atPath: f.directory + "/tmp").filter { $0.hasSuffix(".part") }
        return blobs + temporary
    }

    @Test("an upload that runs out of disk halfway answers 507 InsufficientStorage and leaves no file and no row")
    func diskFullMidBlob() async throws {
        // setup: room for the two variants (written first) and a part of the original
        let jpeg = try Self.noiseJPEG(width: 600, height: 500)
        let variants =
            try Imaging.thumbnail(of: jpeg, maxEdge: BlobStore.thumbnailEdge, quality: 82).jpeg.count
            + Imaging.squareThumbnail(of: jpeg, size: BlobStore.avatarSize, quality: 85).jpeg.count
        let f = try BackendFixture(blobFileSystem: .filling(after: variants + jpeg.count / 2))
        let maya = try f.account("maya")
        let cid = CID(hashing: jpeg, codec: .raw).description

        // act
        let (status, json) = await f.post("dev.hatk.uploadBlob", as: maya, contentType: "image/jpeg", body: jpeg)

        // validate
        #expect(status == 507)
        #expect(json?["error"]?.stringValue == "InsufficientStorage")
        #expect(json?["message"]?.stringValue?.contains("no room") == true)
        #expect(try Self.leftovers(f, cid: cid) == [])
        #expect(try f.backend.store.blobs.blobMimeType(did: maya.rawValue, cid: cid) == nil)
    }

    @Test("a disk already full refuses the first variant the same way")
    func diskFullFromTheStart() async throws {
        // setup
        let f = try BackendFixture(blobFileSystem: .filling(after: 0, failure: EFBIG))
        let maya = try f.account("maya")
        let jpeg = try BackendFixture.jpeg(width: 120, height: 90)
        let cid = CID(hashing: jpeg, codec: .raw).description

        // act
        let (status, json) = await f.post("dev.hatk.uploadBlob", as: maya, contentType: "image/jpeg", body: jpeg)

        // validate
        #expect(status == 507)
        #expect(json?["error"]?.stringValue == "InsufficientStorage")
        #expect(try Self.leftovers(f, cid: cid) == [])
        #expect(try f.backend.store.blobs.blobMimeType(did: maya.rawValue, cid: cid) == nil)
    }

    @Test("once space is freed the same upload succeeds")
    func recoversWhenSpaceReturns() async throws {
        // setup: a disk whose fullness a switch decides
        let full = Atomic<Bool>(true)
        let f = try BackendFixture(
            blobFileSystem: BlobFileSystem { descriptor, buffer in
                full.load(ordering: .relaxed) ? -Int(ENOSPC) : BlobFileSystem.system.write(descriptor, buffer)
            })
        let maya = try f.account("maya")
        let jpeg = try BackendFixture.jpeg(width: 120, height: 90)
        let cid = CID(hashing: jpeg, codec: .raw).description
        #expect(await f.post("dev.hatk.uploadBlob", as: maya, contentType: "image/jpeg", body: jpeg).status == 507)

        // act
        full.store(false, ordering: .relaxed)
        let (status, json) = await f.post("dev.hatk.uploadBlob", as: maya, contentType: "image/jpeg", body: jpeg)

        // validate
        #expect(status == 200)
        #expect(json?["blob"]?["ref"]?["$link"]?.stringValue == cid)
        #expect(try f.backend.store.blobs.blobMimeType(did: maya.rawValue, cid: cid) == "image/jpeg")
        for preset in BlobStore.Preset.ofPhotos {
            #expect(FileManager.default.fileExists(atPath: f.backend.blobs.path(cid: cid, preset: preset)))
        }
    }

    @Test("other write failures answer 500 with a JSON error and leave nothing behind")
    func otherWriteFailure() async throws {
        // setup
        let f = try BackendFixture(blobFileSystem: BlobFileSystem { _, _ in -Int(EIO) })
        let maya = try f.account("maya")
        let jpeg = try BackendFixture.jpeg(width: 120, height: 90)
        let cid = CID(hashing: jpeg, codec: .raw).description

        // act
        let (status, json) = await f.post("dev.hatk.uploadBlob", as: maya, contentType: "image/jpeg", body: jpeg)

        // validate
        #expect(status == 500)
        #expect(json?["error"]?.stringValue == "InternalServerError")
        #expect(try Self.leftovers(f, cid: cid) == [])
    }
}
