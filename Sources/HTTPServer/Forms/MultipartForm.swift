import Foundation

/// A `multipart/form-data` body (RFC 7578), parsed from memory: the server has already bounded its size.
public struct MultipartForm: Sendable {
    public struct Part: Sendable, Equatable {
        public var name: String
        public var filename: String?
        public var contentType: String?
        public var body: [UInt8]
    }

    public var parts: [Part]

    public static let maxParts = 32
    static let maxHeaderBytes = 4096

    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// - Parameter contentType: the request's Content-Type, which carries the boundary.
    public init(_ body: [UInt8], contentType: String) throws(ParseError) {
        guard let boundary = Self.boundary(in: contentType) else {
            throw ParseError(description: "the multipart body has no boundary")
        }
        let delimiter = Array("--".utf8) + Array(boundary.utf8)
        guard var position = Self.find(delimiter, in: body, from: 0) else {
            throw ParseError(description: "the multipart body does not start with its boundary")
        }
        var parts: [Part] = []
        let next = [13, 10] + delimiter
        while true {
            position += delimiter.count
            // "--" after a delimiter closes the body.
            if position + 1 < body.count, body[position] == 0x2D, body[position + 1] == 0x2D { break }
            guard position + 1 < body.count, body[position] == 13, body[position + 1] == 10 else {
                throw ParseError(description: "a multipart boundary is not followed by a line break")
            }
            position += 2
            guard let headerEnd = Self.find([13, 10, 13, 10], in: body, from: position),
                headerEnd - position <= Self.maxHeaderBytes
            else { throw ParseError(description: "a multipart part has no end to its headers") }
            let headers = String(decoding: body[position..<headerEnd], as: UTF8.self)
            let contentStart = headerEnd + 4
            guard let end = Self.find(next, in: body, from: contentStart) else {
                throw ParseError(description: "the multipart body ends before its closing boundary")
            }
            guard parts.count < Self.maxParts else { throw ParseError(description: "the form has too many parts") }
            parts.append(try Self.part(headers: headers, body: Array(body[contentStart..<end])))
            position = end + 2
        }
        self.parts = parts
    }

    /// The first part with this field name.
    public subscript(name: String) -> Part? { parts.first { $0.name == name } }

    /// A text field's value.
    public func text(_ name: String) -> String? {
        self[name].map { String(decoding: $0.body, as: UTF8.self) }
    }

    static func part(headers: String, body: [UInt8]) throws(ParseError) -> Part {
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
        guard let name else { throw ParseError(description: "a multipart part has no field name") }
        return Part(name: name, filename: filename, contentType: contentType, body: body)
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

    /// First index of `needle` in `haystack` at or after `start`.
    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        var i = start
        let last = haystack.count - needle.count
        return haystack.withUnsafeBufferPointer { h in
            while i <= last {
                if h[i] == first {
                    var j = 1
                    while j < needle.count && h[i + j] == needle[j] { j += 1 }
                    if j == needle.count { return i }
                }
                i += 1
            }
            return nil
        }
    }
}

extension Request {
    /// The body as multipart form data; 400 when the content type is wrong or the body malformed.
    public func multipartForm() throws(HTTPError) -> MultipartForm {
        let type = headers["Content-Type"] ?? ""
        guard type.lowercased().hasPrefix("multipart/form-data") else {
            throw HTTPError(.unsupportedMediaType, "Expected a file upload form (multipart/form-data).")
        }
        do {
            return try MultipartForm(body, contentType: type)
        } catch {
            throw HTTPError(.badRequest, "The upload could not be read: \(error.description).")
        }
    }
}
