/// Context-specific escaping, used by the renderer and usable directly (for example by a fuzz target).
///
/// Internally everything appends UTF-8 bytes to one buffer: per-append overhead of `String` dominated rendering
/// time, while a byte buffer appends by `memcpy` and becomes a `String` once at the end.
public enum HTMLEscaping {
    /// The URL that replaces any URL whose scheme is not allowed.
    public static let blockedURL = "about:invalid#blocked"

    /// Escapes text for use between tags: `&`, `<`, `>`, `"` and `'` become character references.
    public static func text(_ string: String) -> String {
        building(capacity: string.utf8.count) { appendText(string, to: &$0) }
    }

    /// Escapes text for use inside a quoted attribute value (either quote): like ``text(_:)``, plus the backtick
    /// that old Internet Explorer treated as a quote.
    public static func attribute(_ string: String) -> String {
        building(capacity: string.utf8.count) { appendAttribute(string, to: &$0) }
    }

    /// Filters a URL and escapes it for a quoted URL attribute such as `href` or `src`.
    ///
    /// Only `http:`, `https:`, `mailto:`, relative URLs and fragments pass; anything else (`javascript:`, `data:`,
    /// `vbscript:`, in any case, behind leading spaces or control characters, or split by tabs and newlines)
    /// becomes ``blockedURL``. The result is attribute-escaped.
    public static func url(_ string: String) -> String {
        building(capacity: string.utf8.count) { appendURL(string, to: &$0) }
    }

    static func building(capacity: Int, _ body: (inout [UInt8]) -> Void) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(capacity + 16)
        body(&output)
        return String(decoding: output, as: UTF8.self)
    }

    static func appendText(_ string: String, to output: inout [UInt8]) {
        appendEscaped(string, escapingBacktick: false, to: &output)
    }

    static func appendAttribute(_ string: String, to output: inout [UInt8]) {
        appendEscaped(string, escapingBacktick: true, to: &output)
    }

    static func appendURL(_ string: String, to output: inout [UInt8]) {
        if isAllowedURL(string) {
            appendEscaped(string, escapingBacktick: true, to: &output)
        } else {
            output.append(contentsOf: blockedURL.utf8)
        }
    }

    /// Copies runs of harmless bytes in one piece, so a string without special characters costs one copy.
    private static func appendEscaped(_ string: String, escapingBacktick: Bool, to output: inout [UInt8]) {
        var string = string
        string.withUTF8 { bytes in
            var runStart = 0
            for index in bytes.indices {
                let replacement: StaticString
                switch bytes[index] {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\""): replacement = "&quot;"
                case UInt8(ascii: "'"): replacement = "&#39;"
                case UInt8(ascii: "`") where escapingBacktick: replacement = "&#96;"
                default: continue
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                replacement.withUTF8Buffer { output.append(contentsOf: $0) }
                runStart = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
    }
}
