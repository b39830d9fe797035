import Foundation
import Testing

@testable import HTTPServer

struct ByteRangeTests {
    @Test(
        "a single byte range is read as RFC 9110 says: first-last, first-, -suffix, an end past the file stops at its end",
        arguments: [
            ("bytes=0-99", ByteRange.part(0...99)),
            ("bytes=100-", .part(100...999)),
            ("bytes=-100", .part(900...999)),
            ("bytes=-5000", .part(0...999)),
            ("bytes=990-5000", .part(990...999)),
            ("bytes=999-999", .part(999...999)),
            ("Bytes=5-9", .part(5...9)),
        ])
    func satisfiable(_ header: String, _ expected: ByteRange) {
        #expect(ByteRange(header, size: 1000) == expected)
    }

    @Test(
        "what cannot be met is 416: a start at or past the end, a zero suffix, any range of an empty file",
        arguments: [("bytes=1000-", 1000), ("bytes=5000-6000", 1000), ("bytes=-0", 1000), ("bytes=0-0", 0), ("bytes=-1", 0)])
    func unsatisfiable(_ header: String, _ size: Int64) {
        #expect(ByteRange(header, size: size) == .unsatisfiable)
    }

    @Test(
        "anything else is answered whole: no header, another unit, several ranges, a backwards or unreadable range",
        arguments: [nil, "items=0-1", "bytes = 5-9", "bytes=0-1,5-9", "bytes=9-5", "bytes=a-b", "bytes=-", "bytes=", "bytes 0-1", "bytes=1-2-3"])
    func whole(_ header: String?) {
        #expect(ByteRange(header, size: 1000) == .whole)
    }

    @Test("a file answers a range with 206 and its bytes' place, a range past its end with 416, and another version's If-Range with all of it")
    func fileRanges() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("range-\(UUID().uuidString)").path
        try Data((0..<200).map { UInt8($0) }).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        func answer(_ headers: HTTPHeaders) -> Response {
            Response.file(
                at: path, contentType: "image/jpeg", cacheControl: "private", etag: "\"v1\"",
                for: Request(method: .get, path: "/p", headers: headers))
        }

        let part = answer(["Range": "bytes=10-19"])
        #expect(part.status == .partialContent)
        #expect(part.headers["Content-Range"] == "bytes 10-19/200")
        guard case .file(_, let offset, let length) = part.body else { Issue.record("no file body"); return }
        #expect(offset == 10 && length == 10)

        let beyond = answer(["Range": "bytes=200-"])
        #expect(beyond.status == .rangeNotSatisfiable && beyond.headers["Content-Range"] == "bytes */200")

        let otherVersion = answer(["Range": "bytes=10-19", "If-Range": "\"v0\""])
        #expect(otherVersion.status == .ok && otherVersion.headers["Accept-Ranges"] == "bytes")
        let sameVersion = answer(["Range": "bytes=10-19", "If-Range": "\"v1\""])
        #expect(sameVersion.status == .partialContent)

        let cached = answer(["Range": "bytes=10-19", "If-None-Match": "\"v1\""])
        #expect(cached.status == .notModified, "a browser that has the file gets 304 before any range is read")
    }
}
