import HTMLRendering
import Testing

struct JSONTagTests {
    /// JSON data cannot end its `<script>` element or break JavaScript parsers.
    @Test("{{json}} inside <script type=\"application/json\"> escapes < > & U+2028 U+2029 and sorts keys")
    func jsonEscaping() throws {
        let source = "<script type=\"application/json\" id=\"data\">{{json story}}</script>"
        let story: TemplateValue = [
            "title": "</script><script>alert(1)</script>",
            "text": "a & b \u{2028}\u{2029} \"q\" \\ \n\t\u{1}",
            "count": 3, "ratio": 0.5, "ok": true, "none": .null, "tags": ["x", 1],
            "html": .safe(SafeHTML(unsafeRaw: "<b>")),
        ]
        let output = try render(source, ["story": story])
        let expected =
            #"{"count":3,"html":"\u003cb\u003e","none":null,"ok":true,"ratio":0.5,"tags":["x",1],"#
            + #""text":"a \u0026 b \u2028\u2029 \"q\" \\ \n\t\u0001","title":"\u003c/script\u003e\u003cscript\u003ealert(1)\u003c/script\u003e"}"#
        #expect(output == "<script type=\"application/json\" id=\"data\">\(expected)</script>")
    }

    /// The JSON script type is recognised as browsers compare MIME types.
    @Test("the script type is matched case-insensitively and with surrounding spaces, in either quote")
    func typeVariants() throws {
        #expect(try render("<script type=' Application/JSON '>{{json v}}</script>", ["v": 1]) == "<script type=' Application/JSON '>1</script>")
    }

    /// The json tag is confined to JSON data blocks.
    @Test("{{json}} is refused in other scripts, including one whose type is interpolated")
    func refusedElsewhere() throws {
        #expect(try compileError("<script>{{json v}}</script>") != nil)
        #expect(try compileError("<script type=\"text/javascript\">{{json v}}</script>") != nil)
        #expect(try compileError("<script type=\"{{ t }}\">{{json v}}</script>") != nil)
        #expect(try compileError("<script type=\"application/json\">{{ v }}</script>") != nil)
    }

    /// The public JSON helper escapes like the tag does.
    @Test("HTMLEscaping.json output never contains a raw < > or &")
    func publicJSON() {
        #expect(HTMLEscaping.json(["a": "<>&"]) == #"{"a":"\u003c\u003e\u0026"}"#)
        #expect(HTMLEscaping.json(.double(.infinity)) == "null")
    }
}
