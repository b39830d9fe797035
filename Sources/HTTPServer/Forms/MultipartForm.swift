import Foundation

/// A `multipart/form-data` body (RFC 7578), parsed from memory or from a body streamed to disk. From disk, nothing
/// is loaded whole: the boundaries are found through a small window, text fields (parts without a filename) are
/// read into memory up to `maxFieldBytes` each, and file parts stay byte ranges of the body file, for a decoder to
/// read from its path.
public struct MultipartForm: Sendable {
    public struct Part: Sendable, Equatable {
        public var name: String
        public var filename: String?
        public var contentType: String?
        /// The part's bytes: in memory, or a range of the body file for file parts of a body on disk.
        public var body: BodyContent
    }

    public var parts: [Part]

    public static let maxParts = 32
    static let maxHeaderBytes = 4096
    /// The largest text field (a part without a filename) read into memory from a body on disk.
    public static let maxFieldBytes = 64 * 1024

    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Code: Sendable {
            /// The body is not a well-formed form (the client's fault).
            case malformed
            /// The body file could not be read back (the server's).
            case unreadable
        }

        public let code: Code
        public let description: String

        init(_ description: String, code: Code = .malformed) {
            self.code = code
            self.description = description
        }
    }

    /// Parses a body held in memory.
    /// - Parameter contentType: the request's Content-Type, which carries the boundary.
    public init(_ body: [UInt8], contentType: String) throws(ParseError) {
        try self.init(MemorySource(bytes: body), contentType: contentType)
    }

    /// Parses a body in memory or on disk.
    public init(_ body: BodyContent, contentType: String) throws(ParseError) {
        switch body {
        case .bytes(let bytes):
            try self.init(MemorySource(bytes: bytes), contentType: contentType)
        case .file(let file):
            let reader: FileReader
            do {
                reader = try FileReader(path: file.path)
            } catch {
                throw ParseError(error.description, code: .unreadable)
            }
            try self.init(FileSource(file: file, reader: reader), contentType: contentType)
        }
    }

    private init(_ source: some MultipartSource, contentType: String) throws(ParseError) {
        guard let boundary = Self.boundary(in: contentType) else {
            throw ParseError("the multipart body has no boundary")
        }
        let delimiter = Array("--".utf8) + Array(boundary.utf8)
        guard var position = try source.find(delimiter, in: 0..<source.count) else {
            throw ParseError("the multipart body does not start with its boundary")
        }
        var parts: [Part] = []
        let next = [13, 10] + delimiter
        while true {
            position += delimiter.count
            let after = try source.bytes(position..<min(position + 2, source.count))
            // "--" after a delimiter closes the body.
            if after == [0x2D, 0x2D] { break }
            guard after == [13, 10] else {
                throw ParseError("a multipart boundary is not followed by a line break")
            }
            position += 2
            let headerWindow = position..<min(source.count, position + Self.maxHeaderBytes + 4)
            guard let headerEnd = try source.find([13, 10, 13, 10], in: headerWindow) else {
                throw ParseError("a multipart part has no end to its headers")
            }
            let headers = String(decoding: try source.bytes(position..<headerEnd), as: UTF8.self)
            let contentStart = headerEnd + 4
            guard let end = try source.find(next, in: contentStart..<source.count) else {
                throw ParseError("the multipart body ends before its closing boundary")
            }
            guard parts.count < Self.maxParts else { throw ParseError("the form has too many parts") }
            var part = try Self.part(headers: headers)
            part.body = try source.content(contentStart..<end, isFile: part.filename != nil, name: part.name)
            parts.append(part)
            position = end + 2
        }
        self.parts = parts
    }

    /// The first part with this field name.
    public subscript(name: String) -> Part? {
        FieldReads.note(name, from: .body)
        return parts.first { $0.name == name }
    }

    /// A text field's value (nil for a missing field or a file part left on disk).
    public func text(_ name: String) -> String? {
        self[name]?.body.inMemory.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Every value of a repeated text field (checkboxes); file parts are left out.
    public func values(_ name: String) -> [String] {
        FieldReads.note(name, from: .body)
        return parts.filter { $0.name == name && $0.filename == nil }.map { String(decoding: $0.body.inMemory ?? [], as: UTF8.self) }
    }

    /// A part's name, filename and type from its header block; its body is filled in by the caller.
    static func part(headers: String) throws(ParseError) -> Part {
        var name: String?
        var filename: String?
        var contentType: String?
        for line in headers.split(separator: "\r\n") {
            let pieces = split(line, at: ":", maxSplits: 1)
            guard pieces.count == 2 else { continue }
            let field = pieces[0].trimmingCharacters(in: .whitespaces).lowercased()
            let value = pieces[1].trimmingCharacters(in: .whitespaces)
            if field == "content-disposition" {
                for parameter in split(Substring(value), at: ";").dropFirst() {
                    let kv = split(parameter, at: "=", maxSplits: 1)
                    guard kv.count == 2 else { continue }
                    let key = kv[0].trimmingCharacters(in: .whitespaces).lowercased()
                    let v = unquoted(kv[1].trimmingCharacters(in: .whitespaces))
                    if key == "name" { name = v } else if key == "filename" { filename = v }
                }
            } else if field == "content-type" {
                contentType = value.lowercased()
            }
        }
        guard let name else { throw ParseError("a multipart part has no field name") }
        return Part(name: name, filename: filename, contentType: contentType, body: .bytes([]))
    }

    static func boundary(in contentType: String) -> String? {
        guard contentType.lowercased().hasPrefix("multipart/form-data") else { return nil }
        for parameter in split(Substring(contentType), at: ";").dropFirst() {
            let kv = split(parameter, at: "=", maxSplits: 1)
            guard kv.count == 2, kv[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else { continue }
            let b = unquoted(kv[1].trimmingCharacters(in: .whitespaces))
            return (1...70).contains(b.utf8.count) ? b : nil
        }
        return nil
    }

    /// Splits at an ASCII delimiter by Unicode scalar. `String.split` and `hasPrefix` work on Characters, and a
    /// combining mark right after `;`, `=`, `:` or `"` forms one Character with it and hid the delimiter: the
    /// multipart fuzzer found `name="\u{301}x"` read as a name with its quotes still on.
    static func split(_ text: Substring, at delimiter: Unicode.Scalar, maxSplits: Int = .max) -> [Substring] {
        text.unicodeScalars.split(separator: delimiter, maxSplits: maxSplits).map(Substring.init)
    }

    /// Without one pair of surrounding double quotes, compared by Unicode scalar for the same reason.
    static func unquoted(_ value: String) -> String {
        let scalars = value.unicodeScalars
        guard scalars.count >= 2, scalars.first == "\"", scalars.last == "\"" else { return value }
        return String(Substring(scalars.dropFirst().dropLast()))
    }

    /// First offset of `needle` in `buffer`: `memchr` to each candidate first byte, then a compare.
    static func search(_ needle: [UInt8], in buffer: UnsafeRawBufferPointer) -> Int? {
        guard let first = needle.first, buffer.count >= needle.count, let base = buffer.baseAddress else { return nil }
        let last = buffer.count - needle.count
        return needle.withUnsafeBytes { wanted in
            var index = 0
            while index <= last {
                guard let hit = memchr(base + index, Int32(first), last - index + 1) else { return nil }
                let candidate = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(base + candidate, wanted.baseAddress!, needle.count) == 0 { return candidate }
                index = candidate + 1
            }
            return nil
        }
    }
}

/// Where a form's bytes are read from.
private protocol MultipartSource {
    var count: Int { get }
    /// The first offset at which `needle` lies wholly inside `range`.
    func find(_ needle: [UInt8], in range: Range<Int>) throws(MultipartForm.ParseError) -> Int?
    /// Bytes `range`, clamped to the end.
    func bytes(_ range: Range<Int>) throws(MultipartForm.ParseError) -> [UInt8]
    /// A part's body.
    func content(_ range: Range<Int>, isFile: Bool, name: String) throws(MultipartForm.ParseError) -> BodyContent
}

private struct MemorySource: MultipartSource {
    let bytes: [UInt8]

    var count: Int { bytes.count }

    func find(_ needle: [UInt8], in range: Range<Int>) -> Int? {
        let range = range.clamped(to: 0..<bytes.count)
        return bytes.withUnsafeBytes { MultipartForm.search(needle, in: UnsafeRawBufferPointer(rebasing: $0[range])) }
            .map { $0 + range.lowerBound }
    }

    func bytes(_ range: Range<Int>) -> [UInt8] {
        Array(bytes[range.clamped(to: 0..<bytes.count)])
    }

    func content(_ range: Range<Int>, isFile: Bool, name: String) -> BodyContent {
        .bytes(bytes(range))
    }
}

private struct FileSource: MultipartSource {
    let file: BodyFile
    let reader: FileReader
    /// The window boundaries are searched through.
    static let windowSize = 64 * 1024

    var count: Int { file.count }

    func find(_ needle: [UInt8], in range: Range<Int>) throws(MultipartForm.ParseError) -> Int? {
        let range = range.clamped(to: 0..<file.count)
        guard !needle.isEmpty, range.count >= needle.count else { return nil }
        var window = [UInt8](repeating: 0, count: min(Self.windowSize, range.count))
        var start = range.lowerBound
        while start + needle.count <= range.upperBound {
            let end = min(range.upperBound, start + window.count)
            let filled = window.withUnsafeMutableBytes {
                reader.fill(UnsafeMutableRawBufferPointer(rebasing: $0[..<(end - start)]), at: file.offset + start)
            }
            guard filled == end - start else { throw unreadable(at: start) }
            let hit = window.withUnsafeBytes { MultipartForm.search(needle, in: UnsafeRawBufferPointer(rebasing: $0[..<filled])) }
            if let hit { return start + hit }
            if end == range.upperBound { return nil }
            // The next window repeats the last needle-length-minus-one bytes, so a needle across the cut is found.
            start = end - (needle.count - 1)
        }
        return nil
    }

    func bytes(_ range: Range<Int>) throws(MultipartForm.ParseError) -> [UInt8] {
        let range = range.clamped(to: 0..<file.count)
        do {
            return try reader.read(at: file.offset + range.lowerBound, count: range.count)
        } catch {
            throw MultipartForm.ParseError(error.description, code: .unreadable)
        }
    }

    func content(_ range: Range<Int>, isFile: Bool, name: String) throws(MultipartForm.ParseError) -> BodyContent {
        if isFile { return .file(file.slice(range)) }
        guard range.count <= MultipartForm.maxFieldBytes else {
            throw MultipartForm.ParseError(
                "the form field \(String(reflecting: name)) is larger than \(MultipartForm.maxFieldBytes / 1024) KiB")
        }
        return .bytes(try bytes(range))
    }

    private func unreadable(at offset: Int) -> MultipartForm.ParseError {
        MultipartForm.ParseError("\(file.path) could not be read at \(file.offset + offset)", code: .unreadable)
    }
}

extension Request {
    /// The body as multipart form data, from memory or from its file on disk; 415 when the content type is wrong,
    /// 400 when the body is malformed, 500 when a body file cannot be read back.
    public func multipartForm() throws(HTTPError) -> MultipartForm {
        let type = headers["Content-Type"] ?? ""
        guard type.lowercased().hasPrefix("multipart/form-data") else {
            throw HTTPError(.unsupportedMediaType, "Expected a file upload form (multipart/form-data).")
        }
        do {
            return try MultipartForm(body, contentType: type)
        } catch  where error.code == .unreadable {
            ServerLog.error("multipart body unreadable: \(error)")
            throw HTTPError(.internalServerError)
        } catch {
            throw HTTPError(.badRequest, "The upload could not be read: \(error.description).")
        }
    }
}
