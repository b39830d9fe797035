extension HTMLEscaping {
    private static let allowedSchemes: [[UInt8]] = [Array("http".utf8), Array("https".utf8), Array("mailto".utf8)]

    /// Decides whether a URL may be emitted, reading it the way a browser's URL parser finds the scheme.
    ///
    /// Browsers drop leading C0 controls and spaces and remove tabs and newlines anywhere, so those are skipped
    /// before looking for the scheme. The scheme is whatever precedes a `:` that comes before any `/`, `?` or `#`;
    /// anything that is not exactly an allowed scheme (ASCII case-insensitive) is refused, including strings
    /// the browser would have read as relative paths, which keeps the rule simple.
    static func isAllowedURL(_ string: String) -> Bool {
        var scheme: [UInt8] = []
        var started = false
        for byte in string.utf8 {
            if byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            if !started && byte <= 0x20 { continue }
            started = true
            switch byte {
            case UInt8(ascii: ":"):
                return allowedSchemes.contains(scheme)
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                return true
            default:
                // Longer than any allowed scheme: remember only that it cannot match.
                if scheme.count <= 6 {
                    scheme.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
                }
            }
        }
        return true
    }
}
