import Foundation
import HTMLRendering
import Testing

struct ContextEscapingTests {
    static let hostile: [String] = [
        "<script>alert(1)</script>", "\" onmouseover=\"x", "' onmouseover='x", "javascript:alert(1)", "JaVaScRiPt:alert(1)",
        " \tjavascript:alert(1)", "data:text/html,<script>alert(1)</script>", "`onerror=x", "&lt;b&gt;",
    ]

    /// Text context: the classic `<script>` injection and quote breakouts render inert.
    @Test("hostile values in text are escaped", arguments: hostile)
    func text(value: String) throws {
        let output = try render("<p>{{ v }}</p>", ["v": .string(value)])
        #expect(output == "<p>" + HTMLEscaping.text(value) + "</p>")
        #expect(!output.dropFirst(3).dropLast(4).contains(where: { "<>\"'".contains($0) }))
    }

    /// Attribute context: a value cannot close the quote or open a new attribute.
    @Test("hostile values in double- and single-quoted attributes are attribute-escaped", arguments: hostile)
    func attributes(value: String) throws {
        let output = try render("<p title=\"{{ v }}\" data-x='{{ v }}'>x</p>", ["v": .string(value)])
        let escaped = HTMLEscaping.attribute(value)
        #expect(output == "<p title=\"\(escaped)\" data-x='\(escaped)'>x</p>")
    }

    /// Every URL attribute from the brief filters a value that starts the URL.
    @Test(
        "hostile URLs at the start of a URL attribute are blocked",
        arguments: ["javascript:alert(1)", "JaVaScRiPt:alert(1)", " \tjavascript:alert(1)", "data:text/html,<script>alert(1)</script>", "vbscript:x"]
    )
    func blockedURLAttributes(value: String) throws {
        let source = """
            <a href="{{u}}">a</a><img src="{{u}}"><form action="{{u}}"></form><button formaction="{{u}}"></button>\
            <video poster="{{u}}"></video><q cite="{{u}}"></q><div data-href="{{u}}"></div><svg><a xlink:href="{{u}}"></a></svg>
            """
        let output = try render(source, ["u": .string(value)])
        let blocked = "about:invalid#blocked"
        #expect(output == source.replacingOccurrences(of: "{{u}}", with: blocked))
    }

    /// Filtering keeps ordinary links working.
    @Test("allowed URLs pass through attribute-escaped")
    func allowedURLAttribute() throws {
        let output = try render("<a href=\"{{u}}\">x</a>", ["u": "https://grain.social/?a=1&b=\"2\""])
        #expect(output == "<a href=\"https://grain.social/?a=1&amp;b=&quot;2&quot;\">x</a>")
    }

    /// Once the template fixed the scheme, values are path or query data.
    @Test("a value after a literal path or query in a URL attribute is attribute-escaped, not filtered")
    func urlAfterLiteralPrefix() throws {
        let output = try render(
            "<a href=\"/profile/{{h}}?tab={{t}}#{{f}}\">x</a><a href=\"mailto:{{m}}\">m</a>",
            ["h": "javascript:alert(1)", "t": "\"x", "f": "<", "m": "a@b.c"]
        )
        #expect(output == "<a href=\"/profile/javascript:alert(1)?tab=&quot;x#&lt;\">x</a><a href=\"mailto:a@b.c\">m</a>")
    }

    /// Browsers strip leading spaces from URLs, so the filter must still apply.
    @Test("leading spaces inside a URL attribute still count as the start of the URL")
    func urlAfterLeadingSpace() throws {
        #expect(try render("<a href=\" {{u}}\">x</a>", ["u": "javascript:x"]) == "<a href=\" about:invalid#blocked\">x</a>")
    }

    /// SafeHTML is trusted markup, not a trusted attribute value or URL.
    @Test("SafeHTML is raw in text but escaped in attributes and URLs")
    func safeHTML() throws {
        let markup = TemplateValue.safe(SafeHTML(unsafeRaw: "<b>bold</b>"))
        let output = try render("<p>{{ m }}</p><p title=\"{{ m }}\"></p>", ["m": markup])
        #expect(output == "<p><b>bold</b></p><p title=\"&lt;b&gt;bold&lt;/b&gt;\"></p>")
        let link = TemplateValue.safe(SafeHTML(unsafeRaw: "javascript:alert(1)"))
        #expect(try render("<a href=\"{{ m }}\"></a>", ["m": link]) == "<a href=\"about:invalid#blocked\"></a>")
    }

    /// RCDATA elements show markup as text, so even SafeHTML is escaped there.
    @Test("text inside <title> and <textarea> is escaped, SafeHTML included")
    func rcData() throws {
        let output = try render(
            "<title>{{ t }} – {{ m }}</title><textarea name=\"c\">{{ t }}</textarea>",
            ["t": "</title><script>x</script>", "m": .safe(SafeHTML(unsafeRaw: "<i>"))]
        )
        let escaped = "&lt;/title&gt;&lt;script&gt;x&lt;/script&gt;"
        #expect(output == "<title>\(escaped) – &lt;i&gt;</title><textarea name=\"c\">\(escaped)</textarea>")
    }

    /// Closing raw-text elements and comments returns to normal text escaping.
    @Test("text after a closed <script>, <style> and comment is ordinary text again")
    func contextsClose() throws {
        let source = "<script src=\"/a.js\"></script><style>p{}</style><!-- note --><p>{{ v }}</p><SCRIPT></SCRIPT >{{ v }}"
        let output = try render(source, ["v": "<x>"])
        #expect(output == source.replacingOccurrences(of: "{{ v }}", with: "&lt;x&gt;"))
    }

    /// Attributes of `<script>` are ordinary attributes; only its content is refused.
    @Test("a CSP nonce can be interpolated as an attribute of <script>")
    func scriptAttributes() throws {
        let output = try render("<script nonce=\"{{ nonce }}\" src=\"{{ src }}\"></script>", ["nonce": "abc\"", "src": "/app.js"])
        #expect(output == "<script nonce=\"abc&quot;\" src=\"/app.js\"></script>")
    }

    /// A bare `<` followed by a space is text, as in browsers.
    @Test("a less-than sign that does not start a tag leaves the context in text")
    func looseLessThan() throws {
        #expect(try render("<p>1 < 2 {{ v }}</p>", ["v": "<"]) == "<p>1 < 2 &lt;</p>")
    }
}
