import Foundation
import FuzzSupport
import HTTPServer

// Input: the first line is the request's Content-Type, the rest is the body.
//
// Properties:
// - parsing never traps, and a parsed form has at most `maxParts` parts, each body a slice of the input body;
// - a parsed form whose names, filenames and content types can be written back unambiguously, serialised again
//   with a fresh boundary, parses to the same parts (byte for byte);
// - a form built from the input (NUL-separated name/body fields, bodies arbitrary bytes) round-trips the same way;
// - the body written to a file parses to the same parts, or fails with the same reason (one parser, two sources).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = Fuzz.bytes(data, size)
    let newline = input.firstIndex(of: 0x0A) ?? input.count
    let contentType = String(decoding: input[..<newline], as: UTF8.self)
    let body = Array(input[min(newline + 1, input.count)...])
    checkSameFromDisk(body, contentType: contentType)
    if let form = try? MultipartForm(body, contentType: contentType) {
        Fuzz.require(form.parts.count <= MultipartForm.maxParts, "\(form.parts.count) parts")
        for part in form.parts {
            let bytes = part.body.inMemory ?? []
            Fuzz.require(part.body.inMemory != nil, "a part parsed from memory is not in memory")
            Fuzz.require(Fuzz.contains(body, bytes), "part body \(Fuzz.show(bytes)) is not in the input")
        }
        let written = form.parts.map(MultipartWriter.Part.init)
        if written.allSatisfy(MultipartWriter.canWrite) {
            MultipartWriter.checkRoundTrip(written)
        }
    }
    MultipartWriter.checkRoundTrip(MultipartWriter.parts(from: input))
    return 0
}

/// Where each input is written for the parse from disk (one file per fuzzing process).
let diskPath = NSTemporaryDirectory() + "fuzz-multipart-\(getpid()).body"

/// Parses `body` from memory and from a file, and requires the same parts (bytes included) or the same error.
func checkSameFromDisk(_ body: [UInt8], contentType: String) {
    guard FileManager.default.createFile(atPath: diskPath, contents: Data(body)) else { Fuzz.fail("cannot write \(diskPath)") }
    defer { unlink(diskPath) }
    func outcome(_ parse: () throws(MultipartForm.ParseError) -> MultipartForm) -> String {
        do {
            return try parse().parts.map { part in
                "\(part.name)|\(part.filename ?? "-")|\(part.contentType ?? "-")|\((try? part.body.load()) ?? [])"
            }.joined(separator: "\n")
        } catch {
            return "error: \(error.description)"
        }
    }
    let memory = outcome { () throws(MultipartForm.ParseError) in try MultipartForm(body, contentType: contentType) }
    let disk = outcome { () throws(MultipartForm.ParseError) in
        try MultipartForm(.file(BodyFile(path: diskPath, count: body.count)), contentType: contentType)
    }
    Fuzz.require(memory == disk, "from memory:\n\(memory)\nfrom disk:\n\(disk)")
}

/// Writes multipart bodies the way browsers do, for the round-trip properties.
enum MultipartWriter {
    /// The fields of `MultipartForm.Part`, whose initializer is internal.
    struct Part: CustomStringConvertible {
        var name: String
        var filename: String?
        var contentType: String?
        var body: [UInt8]

        init(name: String, filename: String?, contentType: String?, body: [UInt8]) {
            self.name = name
            self.filename = filename
            self.contentType = contentType
            self.body = body
        }

        init(_ part: MultipartForm.Part) {
            self.init(name: part.name, filename: part.filename, contentType: part.contentType, body: part.body.inMemory ?? [])
        }

        var description: String {
            "name \(name.debugDescription), filename \(filename.debugDescription), type "
                + "\(contentType.debugDescription), body \(Fuzz.show(body))"
        }
    }

    /// A name, filename or content type containing these would need escaping that browsers do and the parser
    /// does not undo, so such parts are not round-tripped.
    static let unwritable: Set<UInt8> = [0x0D, 0x0A, UInt8(ascii: "\""), UInt8(ascii: ";")]

    static func canWrite(_ part: Part) -> Bool {
        func plain(_ text: String) -> Bool { !text.utf8.contains(where: unwritable.contains) }
        guard plain(part.name), part.filename.map(plain) ?? true else { return false }
        guard let type = part.contentType else { return true }
        // Written unquoted, so surrounding whitespace would be trimmed away.
        return plain(type) && !type.isEmpty && type == type.trimmingCharacters(in: .whitespaces)
    }

    /// Up to six parts from NUL-separated fields: name, body, name, body, …; every third part gets a filename and
    /// a content type.
    static func parts(from input: [UInt8]) -> [Part] {
        let fields = Fuzz.fields(input, separator: 0)
        var parts: [Part] = []
        var index = 0
        while index < fields.count && parts.count < 6 {
            let name = String(decoding: fields[index].filter { !unwritable.contains($0) }, as: UTF8.self)
            let body = index + 1 < fields.count ? Array(fields[index + 1]) : []
            let isFile = parts.count % 3 == 2
            parts.append(
                Part(
                    name: name,
                    filename: isFile ? name + ".jpg" : nil,
                    contentType: isFile ? "image/jpeg" : nil,
                    body: body
                )
            )
            index += 2
        }
        return parts
    }

    static func checkRoundTrip(_ parts: [Part]) {
        var counter = 0
        var boundary = "fuzz-boundary"
        while parts.contains(where: { Fuzz.contains($0.body, Array("\r\n--\(boundary)".utf8)) }) {
            counter += 1
            boundary = "fuzz-boundary-\(counter)"
        }
        let body = write(parts, boundary: boundary)
        let parsed: MultipartForm
        do {
            parsed = try MultipartForm(body, contentType: "multipart/form-data; boundary=\(boundary)")
        } catch {
            Fuzz.fail("a written form does not parse: \(error)\n\(Fuzz.show(body))")
        }
        Fuzz.require(parsed.parts.count == parts.count, "\(parts.count) parts written, \(parsed.parts.count) read")
        for (written, read) in zip(parts, parsed.parts.map(Part.init)) {
            Fuzz.require(
                Array(written.name.utf8) == Array(read.name.utf8)
                    && written.filename.map { Array($0.utf8) } == read.filename.map { Array($0.utf8) }
                    && written.contentType.map { Array($0.lowercased().utf8) }
                        == read.contentType.map { Array($0.utf8) }
                    && written.body == read.body,
                "wrote \(written), read \(read)"
            )
        }
    }

    static func write(_ parts: [Part], boundary: String) -> [UInt8] {
        var out: [UInt8] = []
        for part in parts {
            var disposition = "Content-Disposition: form-data; name=\"\(part.name)\""
            if let filename = part.filename { disposition += "; filename=\"\(filename)\"" }
            out += Array("--\(boundary)\r\n\(disposition)\r\n".utf8)
            if let type = part.contentType { out += Array("Content-Type: \(type)\r\n".utf8) }
            out += Array("\r\n".utf8) + part.body + Array("\r\n".utf8)
        }
        out += Array("--\(boundary)--\r\n".utf8)
        return out
    }
}
