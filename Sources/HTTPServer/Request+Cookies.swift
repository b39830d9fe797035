extension Request {
    /// Cookies from every `Cookie` header. Pairs without `=`, with an empty or invalid name, or with control
    /// characters are skipped; surrounding double quotes are removed. When a name repeats, the first value wins
    /// (browsers send the most specific path first).
    public var cookies: [String: String] {
        var result: [String: String] = [:]
        for header in headers.values("Cookie") {
            for pair in header.split(separator: ";", omittingEmptySubsequences: true) {
                guard let equals = pair.firstIndex(of: "=") else { continue }
                let name = pair[..<equals].trimmingASCIISpaces()
                var value = pair[pair.index(after: equals)...].trimmingASCIISpaces()
                guard Self.isCookieName(name), result[String(name)] == nil else { continue }
                if value.utf8.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                    value = value.dropFirst().dropLast()
                }
                guard value.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F && $0 != UInt8(ascii: "\"") }) else { continue }
                result[String(name)] = String(value)
            }
        }
        return result
    }

    private static func isCookieName(_ name: Substring) -> Bool {
        let separators = Set("()<>@,;:\\\"/[]?={} \t".utf8)
        return !name.isEmpty && name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && !separators.contains($0) }
    }
}

extension Substring {
    func trimmingASCIISpaces() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result = result.dropFirst() }
        while let last = result.last, last == " " || last == "\t" { result = result.dropLast() }
        return result
    }
}
