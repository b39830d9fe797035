import ATProto
import Backend
import Foundation
import Testing

/// What a process killed mid-write leaves is removed when the data directory is next opened, and only then.
struct BlobRecoveryTests {
    /// A data directory holding one complete blob, plus the debris of a write that was killed: a temporary file,
    /// an upload's body still arriving, and a thumbnail whose original never arrived.
    func crashedDirectory() throws -> (directory: String, complete: String, orphan: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("blobs-\(UUID().uuidString)").path
        let complete = try BlobStore(directory: directory).store(try BackendFixture.jpeg(width: 40, height: 30), mimeType: "image/jpeg")
        let orphan = CID(hashing: Array("never finished".utf8), codec: .raw).description
        try Data("half a photo".utf8).write(to: URL(fileURLWithPath: directory + "/tmp/\(UUID().uuidString).part"))
        try Data("half a clip".utf8).write(to: URL(fileURLWithPath: directory + "/tmp/body-" + String(repeating: "0f", count: 16) + ".tmp"))
        try Data("thumbnail".utf8).write(to: URL(fileURLWithPath: directory + "/blobs/\(orphan).thumb.jpg"))
        return (directory, complete.cid, orphan)
    }

    @Test("opening a data directory removes temporary files and variants without an original, and keeps complete blobs")
    func sweepAtStart() throws {
        // setup
        let (directory, complete, orphan) = try crashedDirectory()

        // act
        let store = try BlobStore(directory: directory)

        // validate
        #expect(store.recovered == BlobStore.Recovery(temporaryFiles: 2, orphanedVariants: 1))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/tmp") == [])
        #expect(!FileManager.default.fileExists(atPath: store.path(cid: orphan, preset: .thumbnail)))
        for preset in BlobStore.Preset.ofPhotos {
            #expect(FileManager.default.fileExists(atPath: store.path(cid: complete, preset: preset)))
        }
    }

    @Test("a store opened while another is open does not sweep, since that one may be mid-write")
    func noSweepWhileAnotherStoreIsOpen() throws {
        // setup
        let (directory, _, orphan) = try crashedDirectory()
        let first = try BlobStore(directory: directory)
        let inProgress = directory + "/tmp/\(UUID().uuidString).part"
        try Data("being written".utf8).write(to: URL(fileURLWithPath: inProgress))
        try Data("thumbnail".utf8).write(to: URL(fileURLWithPath: first.path(cid: orphan, preset: .avatar)))

        // act
        let second = try BlobStore(directory: directory)

        // validate
        #expect(first.recovered != nil)
        #expect(second.recovered == nil)
        #expect(FileManager.default.fileExists(atPath: inProgress))
        #expect(FileManager.default.fileExists(atPath: first.path(cid: orphan, preset: .avatar)))
    }
}
