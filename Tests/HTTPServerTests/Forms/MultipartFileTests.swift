import Foundation
import Testing

@testable import HTTPServer

/// The multipart parser over a body on disk: the same parts as from memory, text in memory, files as ranges.
struct MultipartFileTests {
    private func body(photo: [UInt8], boundary: String = "XyZ") -> [UInt8] {
        var body = Array("preamble\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\ntok en\r\n".utf8)
        body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"labels\"\r\n\r\nnudity\r\n".utf8)
        body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
        body += photo + Array("\r\n--\(boundary)--\r\n".utf8)
        return body
    }

    /// Writes `bytes` after a `lead` of junk, so the body is a range that does not start the file.
    private func onDisk(_ bytes: [UInt8], _ directory: TemporaryDirectory, lead: Int = 7) throws -> BodyContent {
        let path = directory.path + "/body.bin"
        try Data([UInt8](repeating: 0x2D, count: lead) + bytes + [0x2D, 0x2D]).write(to: URL(fileURLWithPath: path))
        return .file(BodyFile(path: path, offset: lead, count: bytes.count))
    }

    @Test("a body on disk gives the same parts as from memory: text in memory, the file part a range of the body")
    func sameAsMemory() throws {
        // setup: a photo long enough to cross several search windows
        let directory = try TemporaryDirectory()
        let photo = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) }
        let bytes = body(photo: photo)
        let type = "multipart/form-data; boundary=XyZ"

        // MUT
        let fromDisk = try MultipartForm(try onDisk(bytes, directory), contentType: type)
        let fromMemory = try MultipartForm(bytes, contentType: type)

        // validate
        #expect(fromDisk.parts.map(\.name) == ["csrf", "labels", "photo"])
        #expect(fromDisk.text("csrf") == "tok en")
        #expect(fromDisk.parts[1].body == .bytes(Array("nudity".utf8)))
        let part = try #require(fromDisk["photo"])
        guard case .file(let range) = part.body else {
            Issue.record("the file part was loaded into memory")
            return
        }
        #expect(range.count == photo.count)
        #expect(try range.read(0..<range.count) == photo)
        #expect(try part.body.prefix(4) == Array(photo.prefix(4)))
        #expect(part.filename == "a.jpg" && part.contentType == "image/jpeg")
        #expect(fromDisk.text("photo") == nil)
        #expect(fromMemory.parts.map(\.name) == fromDisk.parts.map(\.name))
        #expect(fromMemory["photo"]?.body == .bytes(photo))
    }

    @Test("a boundary that straddles the search window's edge is found")
    func boundaryAcrossWindow() throws {
        let directory = try TemporaryDirectory()
        let type = "multipart/form-data; boundary=XyZ"
        let head = body(photo: []).count - Array("\r\n--XyZ--\r\n".utf8).count
        // Every cut of the closing delimiter across the 64 KiB edge (the file starts at offset 7).
        for shift in 0..<10 {
            let photo = [UInt8](repeating: 0x41, count: 65536 - head - 7 - shift + 3)
            let form = try MultipartForm(try onDisk(body(photo: photo), directory), contentType: type)
            #expect(form["photo"]?.body.count == photo.count, "shift \(shift)")
        }
    }

    @Test("a text field larger than the in-memory bound is refused from disk, naming the field")
    func largeFieldRefused() throws {
        let directory = try TemporaryDirectory()
        var bytes = Array("--B\r\nContent-Disposition: form-data; name=\"essay\"\r\n\r\n".utf8)
        bytes += [UInt8](repeating: 0x61, count: MultipartForm.maxFieldBytes + 1) + Array("\r\n--B--\r\n".utf8)

        let error = #expect(throws: MultipartForm.ParseError.self) {
            try MultipartForm(try onDisk(bytes, directory), contentType: "multipart/form-data; boundary=B")
        }
        #expect(error?.code == .malformed)
        #expect(error?.description.contains("\"essay\"") == true)
    }

    @Test("malformed bodies on disk are refused with the same reasons as in memory; a missing file is unreadable")
    func malformedOnDisk() throws {
        let directory = try TemporaryDirectory()
        let cases = [
            "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno end", "garbage", "--XyZ\r\nno headers end",
            "--XyZ\r\nContent-Type: text/plain\r\n\r\nx\r\n--XyZ--", "",
            "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n" + String(repeating: "h", count: 5000) + "\r\n\r\nx\r\n--XyZ--",
        ]
        let type = "multipart/form-data; boundary=XyZ"
        for text in cases {
            let memory = #expect(throws: MultipartForm.ParseError.self) { try MultipartForm(Array(text.utf8), contentType: type) }
            let disk = #expect(throws: MultipartForm.ParseError.self) {
                try MultipartForm(try onDisk(Array(text.utf8), directory), contentType: type)
            }
            #expect(memory?.description == disk?.description, "\(text)")
        }
        let missing = #expect(throws: MultipartForm.ParseError.self) {
            try MultipartForm(.file(BodyFile(path: directory.path + "/gone", count: 10)), contentType: type)
        }
        #expect(missing?.code == .unreadable)
    }
}
