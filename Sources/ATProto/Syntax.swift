/// Why an identifier was refused, for a 400 a person can act on.
public struct SyntaxError: Error, Sendable, CustomStringConvertible, Equatable {
    public let kind: String
    public let input: String
    public var description: String { "not a valid \(kind): \"\(input.prefix(80))\"" }
}

/// A decentralized identifier (`did:method:specific-id`), checked against the atproto DID syntax.
public struct DID: Hashable, Sendable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(_ string: String) throws(SyntaxError) {
        guard DID.isValid(string) else { throw SyntaxError(kind: "DID", input: string) }
        rawValue = string
    }

    /// Nil instead of an error, for optional parsing.
    public static func parse(_ string: String) -> DID? { try? DID(string) }

    public var description: String { rawValue }
    public var method: Substring { rawValue.split(separator: ":")[1] }

    public static func isValid(_ s: String) -> Bool {
        let bytes = Array(s.utf8)
        guard bytes.count <= 2048, s.hasPrefix("did:") else { return false }
        let rest = bytes.dropFirst(4)
        guard let colon = rest.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let method = rest[rest.startIndex..<colon]
        let id = rest[(colon + 1)...]
        guard !method.isEmpty, method.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) else { return false }
        guard let last = id.last, !id.isEmpty else { return false }
        guard id.allSatisfy({ $0.isAlphanumeric || ".-_:%".utf8.contains($0) }) else { return false }
        return last != UInt8(ascii: ":") && last != UInt8(ascii: "%")
    }

    public init(from decoder: any Decoder) throws {
        let string = try decoder.singleValueContainer().decode(String.self)
        try self.init(string as String)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// A domain-name handle (`alice.example.com`), normalised to lower case.
public struct Handle: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(_ string: String) throws(SyntaxError) {
        guard Handle.isValid(string) else { throw SyntaxError(kind: "handle", input: string) }
        rawValue = string.lowercased()
    }

    public var description: String { rawValue }

    public static func isValid(_ s: String) -> Bool {
        let bytes = Array(s.utf8)
        guard bytes.count <= 253, !bytes.isEmpty else { return false }
        let labels = s.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return false }
        for label in labels {
            let l = Array(label.utf8)
            guard (1...63).contains(l.count) else { return false }
            guard l.allSatisfy({ $0.isAlphanumeric || $0 == UInt8(ascii: "-") }) else { return false }
            guard l.first != UInt8(ascii: "-"), l.last != UInt8(ascii: "-") else { return false }
        }
        // The top-level label may not start with a digit.
        return !(labels.last!.utf8.first!.isDigit)
    }
}

/// A namespaced identifier such as `social.grain.story`.
public struct NSID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(_ string: String) throws(SyntaxError) {
        guard NSID.isValid(string) else { throw SyntaxError(kind: "NSID", input: string) }
        rawValue = string
    }

    public var description: String { rawValue }

    public static func isValid(_ s: String) -> Bool {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard s.utf8.count <= 317, parts.count >= 3 else { return false }
        for (i, part) in parts.enumerated() {
            let p = Array(part.utf8)
            guard (1...63).contains(p.count), p.allSatisfy({ $0.isAlphanumeric || $0 == UInt8(ascii: "-") }) else {
                return false
            }
            if i == parts.count - 1 {
                // The name segment: letters and digits only, not starting with a digit.
                guard p.allSatisfy({ $0.isAlphanumeric }), !p[0].isDigit else { return false }
            } else if p.first == UInt8(ascii: "-") || p.last == UInt8(ascii: "-") {
                return false
            }
        }
        return !parts[0].utf8.first!.isDigit
    }
}

/// A record key: 1–512 characters of `[A-Za-z0-9._~:-]`, never `.` or `..`.
public enum RecordKey {
    public static func isValid(_ s: String) -> Bool {
        let b = Array(s.utf8)
        guard (1...512).contains(b.count), s != ".", s != ".." else { return false }
        return b.allSatisfy { $0.isAlphanumeric || "._~:-".utf8.contains($0) }
    }
}

extension UInt8 {
    var isDigit: Bool { self >= 0x30 && self <= 0x39 }
    var isAlphanumeric: Bool { isDigit || (self >= 0x41 && self <= 0x5A) || (self >= 0x61 && self <= 0x7A) }
}
