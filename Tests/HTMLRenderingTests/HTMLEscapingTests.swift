import HTMLRendering
import TestSupport
import Testing

struct HTMLEscapingTests {
    /// Text escaping replaces the five HTML-significant characters and leaves everything else alone.
    @Test("text escaping replaces & < > \" ' and keeps other characters")
    func textEscaping() {
        #expect(HTMLEscaping.text("<script>alert(1)</script>") == "&lt;script&gt;alert(1)&lt;/script&gt;")
        #expect(HTMLEscaping.text("Tom & \"Jerry\" 'n' `x`") == "Tom &amp; &quot;Jerry&quot; &#39;n&#39; `x`")
        #expect(HTMLEscaping.text("plain café 🌾") == "plain café 🌾")
        #expect(HTMLEscaping.text("") == "")
    }

    /// Attribute escaping covers both quote styles and the backtick.
    @Test("attribute escaping also replaces the backtick")
    func attributeEscaping() {
        #expect(HTMLEscaping.attribute("\" onmouseover=\"x") == "&quot; onmouseover=&quot;x")
        #expect(HTMLEscaping.attribute("`a' <b>&") == "&#96;a&#39; &lt;b&gt;&amp;")
    }

    /// Allowed schemes and relative URLs pass unchanged apart from escaping.
    @Test(
        "URL filtering passes http, https, mailto, relative URLs and fragments",
        arguments: [
            "https://grain.social/profile/alice", "http://example.com", "HTTPS://EXAMPLE.COM", "mailto:a@b.c",
            "/stories/3k2?x=1", "stories/3k2", "?q=1", "#top", "//cdn.example/img.jpg", "", "a/b:c",
        ]
    )
    func allowedURLs(url: String) {
        #expect(HTMLEscaping.url(url) == HTMLEscaping.attribute(url))
    }

    /// Dangerous schemes are blocked however they are disguised.
    @Test(
        "URL filtering blocks other schemes, including case variants and whitespace or control-character tricks",
        arguments: [
            "javascript:alert(1)", "JaVaScRiPt:alert(1)", " \tjavascript:alert(1)", "java\tscript:alert(1)",
            "java\nscript:alert(1)", "\u{0}javascript:alert(1)", "\u{1F}javascript:x", "data:text/html,<script>alert(1)</script>",
            "DATA:text/html;base64,PHNjcmlwdD4=", "vbscript:msgbox", "file:///etc/passwd", "ftp://x", "tel:123",
            "javascript\\:x", "https\u{0}:x", "ｊavascript:x", "foo:bar", ":x", "blob:https://a/b",
        ]
    )
    func blockedURLs(url: String) {
        #expect(HTMLEscaping.url(url) == "about:invalid#blocked")
    }

    /// A passing URL still cannot break out of its attribute.
    @Test("an allowed URL is attribute-escaped")
    func urlIsAttributeEscaped() {
        #expect(HTMLEscaping.url("/search?q=\"><script>&x='`") == "/search?q=&quot;&gt;&lt;script&gt;&amp;x=&#39;&#96;")
    }

    /// Property: over 10,000 random strings built from all of ASCII plus some Unicode, escaped output never
    /// contains a raw `<`, `>`, `"` or `'`, and every `&` starts one of the references the escaper writes.
    @Test("10,000 random strings never escape to a raw < > \" or '")
    func escapingProperty() {
        var generator = SeededGenerator(seed: 0x6772_6169_6E)
        let unicode: [Unicode.Scalar] = ["é", "ß", "\u{2028}", "\u{2029}", "\u{FEFF}", "\u{00A0}", "🌾", "日", "\u{FFFD}", "＜"]
        let references = ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;", "&#96;"]
        for _ in 0..<10_000 {
            var input = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                if Int.random(in: 0..<8, using: &generator) == 0 {
                    input.append(unicode.randomElement(using: &generator)!)
                } else {
                    input.append(Unicode.Scalar(UInt8.random(in: 0...127, using: &generator)))
                }
            }
            let string = String(input)
            for escaped in [HTMLEscaping.text(string), HTMLEscaping.attribute(string), HTMLEscaping.url(string)] {
                #expect(!escaped.contains(where: { "<>\"'".contains($0) }), "\(string.debugDescription)")
                var rest = Substring(escaped)
                while let amp = rest.firstIndex(of: "&") {
                    rest = rest[amp...]
                    #expect(references.contains(where: { rest.hasPrefix($0) }))
                    rest = rest.dropFirst()
                }
            }
            #expect(!HTMLEscaping.attribute(string).contains("`"))
        }
    }
}
