import Foundation

/// Reads RFC 4180 records from a byte buffer without copying: fields come back as spans so that only the columns
/// we keep are ever turned into strings. Tolerates `\n` and `\r\n` line ends and `""` escapes inside quotes.
struct CSVRecordReader {
    /// One field: the bytes between the delimiters, outer quotes excluded.
    struct Field {
        var start: Int
        var end: Int
        /// Whether the field contains `""` escapes that must be collapsed.
        var hasEscapedQuotes: Bool
    }

    private static let comma = UInt8(ascii: ",")
    private static let quote = UInt8(ascii: "\"")
    private static let cr = UInt8(ascii: "\r")
    private static let lf = UInt8(ascii: "\n")

    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Replaces `fields` with the next record's fields; returns `false` at the end of the input.
    mutating func next(into fields: inout [Field]) -> Bool {
        fields.removeAll(keepingCapacity: true)
        guard position < bytes.count else { return false }
        while true {
            guard position < bytes.count else {
                // A trailing comma at the very end still opens one last, empty field.
                fields.append(Field(start: position, end: position, hasEscapedQuotes: false))
                return true
            }
            fields.append(bytes[position] == Self.quote ? readQuoted() : readPlain())
            guard position < bytes.count else { return true }
            let delimiter = bytes[position]
            position += 1
            if delimiter == Self.comma { continue }
            if delimiter == Self.cr, position < bytes.count, bytes[position] == Self.lf { position += 1 }
            return true
        }
    }

    /// The field's text, with `""` collapsed to `"`.
    func string(_ field: Field) -> String {
        let slice = UnsafeBufferPointer(rebasing: bytes[field.start..<field.end])
        let text = String(decoding: slice, as: UTF8.self)
        return field.hasEscapedQuotes ? text.replacingOccurrences(of: "\"\"", with: "\"") : text
    }

    private func isDelimiter(_ byte: UInt8) -> Bool {
        byte == Self.comma || byte == Self.lf || byte == Self.cr
    }

    private mutating func readPlain() -> Field {
        let start = position
        while position < bytes.count, !isDelimiter(bytes[position]) { position += 1 }
        return Field(start: start, end: position, hasEscapedQuotes: false)
    }

    private mutating func readQuoted() -> Field {
        position += 1
        let start = position
        var escaped = false
        while position < bytes.count {
            if bytes[position] == Self.quote {
                guard position + 1 < bytes.count, bytes[position + 1] == Self.quote else { break }
                escaped = true
                position += 2
            } else {
                position += 1
            }
        }
        let end = position
        if position < bytes.count { position += 1 }
        // Stray bytes after a closing quote are malformed; drop them rather than splicing them into the field.
        while position < bytes.count, !isDelimiter(bytes[position]) { position += 1 }
        return Field(start: start, end: end, hasEscapedQuotes: escaped)
    }
}
