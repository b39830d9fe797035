extension RequestHeadFields {
    /// Cookies from every `Cookie` header. Pairs without `=`, with an empty or invalid name, or with control
    /// characters are skipped; surrounding double quotes are removed. When a name repeats, the first value wins
    /// (browsers send the most specific path first).
    public var cookies: [String: String] {
        var result: [String: String] = [:]
        for header in headers.values("Cookie") {
            // Delimiters are found in the UTF-8 bytes, not in Characters: a combining mark right after `;` or `=`
            // forms one grapheme with it and hid the delimiter, so the cookie fuzzer's `e=\u{59D}x` was dropped
            // and `a=1;\u{301}b=2` read as one value containing `;`. Every cut is at an ASCII byte, so the pieces
            // stay valid UTF-8.
            for pair in header.utf8.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: true) {
                guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { continue }
                let name = Self.trimmingASCIISpaces(pair[..<equals])
                var value = Self.trimmingASCIISpaces(pair[pair.index(after: equals)...])
                guard Self.isCookieName(name), result[String(Substring(name))] == nil else { continue }
                if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") {
                    value = value.dropFirst().dropLast()
                }
                guard value.allSatisfy({ $0 > 0x20 && $0 != 0x7F && $0 != UInt8(ascii: "\"") }) else { continue }
                result[String(Substring(name))] = String(Substring(value))
            }
        }
        return result
    }

    private static func isCookieName(_ name: Substring.UTF8View) -> Bool {
        let separators = Set("()<>@,;:\\\"/[]?={} \t".utf8)
        return !name.isEmpty && name.allSatisfy { $0 > 0x20 && $0 < 0x7F && !separators.contains($0) }
    }

    private static func trimmingASCIISpaces(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
        Substring.trimmed(bytes)
    }
}

extension Substring {
    /// Trims spaces and tabs by byte, so a combining mark after a space can't hide it.
    func trimmingASCIISpaces() -> Substring {
        Substring(Self.trimmed(utf8))
    }

    static func trimmed(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
        var result = bytes
        while let first = result.first, first == 0x20 || first == 0x09 { result = result.dropFirst() }
        while let last = result.last, last == 0x20 || last == 0x09 { result = result.dropLast() }
        return result
    }
}
