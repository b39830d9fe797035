extension RequestHeadFields {
    /// Cookies from every `Cookie` header. Pairs without `=`, with an empty or invalid name, or with control
    /// characters are skipped; surrounding double quotes are removed. When a name repeats, the first value wins
    /// (browsers send the most specific path first).
    public var cookies: [String: String] {
        var result: [String: String] = [:]
        forEachCookie { name, value in
            let key = String(decoding: name, as: UTF8.self)
            if result[key] == nil { result[key] = String(decoding: value, as: UTF8.self) }
            return true
        }
        return result
    }

    /// The value `cookies[name]` would give, found without building the dictionary: every page asks for two or
    /// three cookies by name, and reading them was 7% of a cached signed-in page's CPU (perf).
    public func cookie(_ name: String) -> String? {
        var found: String?
        forEachCookie { candidate, value in
            guard candidate.elementsEqual(name.utf8) else { return true }
            found = String(decoding: value, as: UTF8.self)
            return false
        }
        return found
    }

    /// The first value of each of `names` (nil where there is none), read in one pass over the Cookie headers: the
    /// server thread's fast path asks for four names on every cached page.
    public func cookieValues(_ names: [String]) -> [String?] {
        var found = [String?](repeating: nil, count: names.count)
        var missing = names.count
        let wanted: (UnsafeBufferPointer<UInt8>) -> Bool = { candidate in
            names.indices.contains { found[$0] == nil && candidate.elementsEqual(names[$0].utf8) }
        }
        forEachCookie(where: wanted) { candidate, value in
            for index in names.indices where found[index] == nil && candidate.elementsEqual(names[index].utf8) {
                found[index] = String(decoding: value, as: UTF8.self)
                missing -= 1
            }
            return missing > 0
        }
        return found
    }

    /// Calls `body` with each well-formed pair's name and value bytes, in order, until it returns false.
    ///
    /// Delimiters are found in the UTF-8 bytes, not in Characters: a combining mark right after `;` or `=` forms
    /// one grapheme with it and hid the delimiter, so the cookie fuzzer's `e=\u{59D}x` was dropped and
    /// `a=1;\u{301}b=2` read as one value containing `;`. Every cut is at an ASCII byte, so the pieces stay valid
    /// UTF-8.
    /// `wanted` sees each well-formed name first: a pair it does not want is passed over without checking its value
    /// (the fast path wants four names and skips the rest, the CSRF token among them, unread).
    private func forEachCookie(
        where wanted: (UnsafeBufferPointer<UInt8>) -> Bool = { _ in true },
        _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Bool
    ) {
        for header in headers.values("Cookie") {
            var header = header
            let more = header.withUTF8 { bytes in
                var start = 0
                while start < bytes.count {
                    var end = start
                    while end < bytes.count, bytes[end] != UInt8(ascii: ";") { end += 1 }
                    defer { start = end + 1 }
                    guard let equals = bytes[start..<end].firstIndex(of: UInt8(ascii: "=")) else { continue }
                    let name = Self.trimmed(bytes, start..<equals)
                    var value = Self.trimmed(bytes, (equals + 1)..<end)
                    guard !name.isEmpty, bytes[name].allSatisfy(Self.isTokenByte), wanted(UnsafeBufferPointer(rebasing: bytes[name])) else {
                        continue
                    }
                    if value.count >= 2, bytes[value.lowerBound] == UInt8(ascii: "\""), bytes[value.upperBound - 1] == UInt8(ascii: "\"") {
                        value = (value.lowerBound + 1)..<(value.upperBound - 1)
                    }
                    guard bytes[value].allSatisfy({ $0 > 0x20 && $0 != 0x7F && $0 != UInt8(ascii: "\"") }) else { continue }
                    if !body(UnsafeBufferPointer(rebasing: bytes[name]), UnsafeBufferPointer(rebasing: bytes[value])) { return false }
                }
                return true
            }
            if !more { return }
        }
    }

    /// `range` without the spaces and tabs at either end.
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        return lower..<upper
    }

    /// A byte of RFC 6265's cookie-name: visible ASCII but for the separators.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && !isSeparator(byte)
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "@"), UInt8(ascii: ","),
            UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "/"), UInt8(ascii: "["),
            UInt8(ascii: "]"), UInt8(ascii: "?"), UInt8(ascii: "="), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: " "),
            UInt8(ascii: "\t"):
            return true
        default:
            return false
        }
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
