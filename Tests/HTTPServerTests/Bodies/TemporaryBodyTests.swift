import Foundation
import Testing

@testable import HTTPServer

struct TemporaryBodyTests {
    @Test("sweep removes the body files a killed server left, and nothing else in the directory")
    func sweepRemovesOnlyBodies() throws {
        // setup: two leftovers, and neighbours that merely look alike
        let directory = try TemporaryDirectory()
        let first = try TemporaryBody.create(in: directory.path)
        let second = try TemporaryBody.create(in: directory.path)
        first.finishWriting()
        let keep = ["front.sqlite", "body-1234.tmp", "body-\(String(repeating: "g", count: 32)).tmp", "body-x.tmp.bak"]
        for name in keep { try directory.write(name, "x") }

        // MUT
        let removed = TemporaryBodies.sweep(directory: directory.path)

        // validate
        #expect(removed == 2)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: directory.path)) == Set(keep))
        #expect(TemporaryBodies.sweep(directory: directory.path + "/missing") == 0)
        _ = second
    }

    @Test("a body file is private, removed once, and removed when its last reference goes")
    func lifecycle() throws {
        let directory = try TemporaryDirectory()
        var body: TemporaryBody? = try TemporaryBody.create(in: directory.path)
        let path = try #require(body?.path)
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        let bytes: [UInt8] = [1, 2, 3]
        #expect(bytes.withUnsafeBytes { body?.append($0) } == nil)
        #expect(body?.count == 3)
        body = nil
        #expect(!FileManager.default.fileExists(atPath: path))

        let other = try TemporaryBody.create(in: directory.path)
        other.remove()
        other.remove()
        #expect(other.isReleased)
        #expect(!FileManager.default.fileExists(atPath: other.path))
    }

    @Test("a body file cannot be made in a directory that does not exist, and the error says where")
    func missingDirectory() {
        let error = #expect(throws: BodyFileError.self) { try TemporaryBody.create(in: "/nonexistent/uploads") }
        #expect(error?.description.contains("/nonexistent/uploads") == true)
    }

    @Test("BodyContent reads a file range, its prefix, and refuses a load over the limit")
    func contentReads() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("data.bin", "0123456789")
        let range = BodyContent.file(BodyFile(path: path, offset: 2, count: 5))

        #expect(try range.load() == Array("23456".utf8))
        #expect(try range.prefix(2) == Array("23".utf8))
        #expect(try range.prefix(99) == Array("23456".utf8))
        #expect(range.count == 5 && range.inMemory == nil)
        #expect(throws: BodyFileError.self) { try range.load(limit: 4) }
        #expect(throws: BodyFileError.self) { try BodyContent.file(BodyFile(path: path, offset: 8, count: 5)).load() }
        let bytes: BodyContent = [1, 2]
        #expect(bytes.inMemory == [1, 2] && bytes.count == 2)
    }
}
