import Foundation
import MappedFiles
import Testing

/// The one memory map of a whole file: the place search's table and every photo the pipeline reads.
@Suite struct MappedFileTests {
    func file(_ bytes: [UInt8]) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mapped-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return path
    }

    @Test("a regular file's bytes are mapped whole, read-only, and stay readable after the file is removed")
    func mapsWholeFile() throws {
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let path = file(bytes)
        let mapped = try MappedFile(path: path, maximumSize: 1 << 20)
        unlink(path)
        #expect(mapped.bytes.count == bytes.count)
        #expect(Array(mapped.bytes) == bytes)
        #expect(mapped.path == path)
    }

    @Test("a missing file, a directory, an empty file and one over the limit are refused, each with its reason")
    func refusals() throws {
        let missing = "/nonexistent/\(UUID().uuidString)"
        #expect(throws: MappedFile.Failure.unreadable(path: missing, reason: "no such file")) {
            try MappedFile(path: missing, maximumSize: 10)
        }
        let directory = FileManager.default.temporaryDirectory.path
        #expect(throws: MappedFile.Failure.notRegularFile(path: directory)) { try MappedFile(path: directory, maximumSize: 10) }
        let empty = file([])
        defer { unlink(empty) }
        #expect(throws: MappedFile.Failure.empty(path: empty)) { try MappedFile(path: empty, maximumSize: 10) }
        let large = file([UInt8](repeating: 1, count: 11))
        defer { unlink(large) }
        #expect(throws: MappedFile.Failure.tooLarge(path: large, size: 11, limit: 10)) { try MappedFile(path: large, maximumSize: 10) }
        #expect(try MappedFile(path: large, maximumSize: 11).bytes.count == 11, "exactly the limit is allowed")
    }
}
