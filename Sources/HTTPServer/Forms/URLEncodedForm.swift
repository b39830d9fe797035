/// An `application/x-www-form-urlencoded` body: ordered name/value pairs.
public struct URLEncodedForm: Sendable, Equatable {
    public var fields: [(name: String, value: String)]

    /// More fields than any of our forms has; a body with more is refused rather than parsed.
    public static let maxFields = 256

    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Parses a body. Malformed percent escapes are kept literally, never a crash.
    public init(_ body: [UInt8]) throws(ParseError) {
        var fields: [(String, String)] = []
        for pair in body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            guard fields.count < Self.maxFields else { throw ParseError(description: "the form has too many fields") }
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            let value = parts.count > 1 ? Self.decode(parts[1]) : ""
            fields.append((name, value))
        }
        self.fields = fields
    }

    /// The first value of a field.
    public subscript(name: String) -> String? {
        FieldReads.note(name, from: .body)
        return fields.first { $0.name == name }?.value
    }

    /// Every value of a repeated field (checkboxes).
    public func values(_ name: String) -> [String] {
        FieldReads.note(name, from: .body)
        return fields.filter { $0.name == name }.map(\.value)
    }

    public static func == (a: URLEncodedForm, b: URLEncodedForm) -> Bool {
        a.fields.elementsEqual(b.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "+") {
                out.append(0x20)
            } else if b == UInt8(ascii: "%"), i + 2 < bytes.endIndex, let h = hex(bytes[i + 1]), let l = hex(bytes[i + 2]) {
                out.append(h << 4 | l)
                i += 2
            } else {
                out.append(b)
            }
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }
}

extension Request {
    /// The body as a URL-encoded form; 400 when the content type is wrong or the body malformed.
    public func urlEncodedForm() throws(HTTPError) -> URLEncodedForm {
        let type = headers["Content-Type"]?.lowercased() ?? ""
        guard type.hasPrefix("application/x-www-form-urlencoded") else {
            throw HTTPError(.unsupportedMediaType, "Expected a form submission (application/x-www-form-urlencoded).")
        }
        let bytes: [UInt8]
        do {
            bytes = try body.load()
        } catch {
            ServerLog.error("form body unreadable: \(error)")
            throw HTTPError(.internalServerError)
        }
        do {
            return try URLEncodedForm(bytes)
        } catch {
            throw HTTPError(.badRequest, error.description)
        }
    }
}
