import HTMLRendering
import Testing

/// Sections may sit inside tags and attribute values; the branches must agree on the HTML context.
struct SectionContextTests {
    /// Common conditional attribute patterns compile.
    @Test("a conditional boolean attribute and conditional classes compile and render")
    func conditionalAttributes() throws {
        let source = "<input type=\"checkbox\" {{#if on}}checked{{/if}} name=\"n\"><p class=\"a {{#if on}}b{{else}}c{{/if}}\">x</p>"
        #expect(try render(source, ["on": true]) == "<input type=\"checkbox\" checked name=\"n\"><p class=\"a b\">x</p>")
        #expect(try render(source, ["on": false]) == "<input type=\"checkbox\"  name=\"n\"><p class=\"a c\">x</p>")
    }

    /// A conditional attribute with an interpolated value is escaped.
    @Test("a whole conditional attribute with an escaped value compiles")
    func conditionalAttributeWithValue() throws {
        let source = "<a href=\"/x\"{{#if t}} title=\"{{ t }}\"{{/if}}>x</a>"
        #expect(try render(source, ["t": "\"hi\""]) == "<a href=\"/x\" title=\"&quot;hi&quot;\">x</a>")
    }

    /// Branches that leave the tokenizer in different states would make later escaping wrong.
    @Test(
        "branches that end in different HTML contexts are refused",
        arguments: [
            ("{{#if a}}<p title=\"{{/if}}x\">", "different HTML contexts"),
            ("{{#if a}}<script>{{else}}<p>{{/if}}</script>", "different HTML contexts"),
            ("{{#if a}}<!--{{/if}}-->", "different HTML contexts"),
            ("<p {{#if a}}data-x{{/if}}=\"1\">", "ambiguous"),
            ("<a {{#if a}}on{{/if}}click=\"{{ y }}\">", "runs into a section tag"),
            ("<p class={{#if a}}x{{/if}}>", "section tag cannot appear"),
            ("<{{#if a}}b{{else}}i{{/if}}>", "section tag cannot appear"),
            ("<p {{#each a}}x{{/each}}>", "must end in the HTML context it starts in"),
        ]
    )
    func mismatchedBranches(source: String, expected: String) throws {
        let error = try #require(try compileError(source))
        #expect(error.message.contains(expected), "\(error)")
    }

    /// After branches join, the stricter URL state applies.
    @Test("a value after a conditional URL prefix is only allowed where every branch settled the scheme")
    func conditionalURLPrefix() throws {
        #expect(try compileError("<a href=\"{{#if a}}/x/{{/if}}{{ y }}\">") != nil)
        #expect(try compileError("<a href=\"{{#if a}}/x/{{else}}/y/{{/if}}{{ y }}\">") == nil)
        let output = try render("<a href=\"{{#if a}}/x/{{else}}/y/{{/if}}{{ y }}\"></a>", ["a": true, "y": "javascript:x"])
        #expect(output == "<a href=\"/x/javascript:x\"></a>")
    }

    /// A loop cannot assemble a scheme from several filtered parts.
    @Test("a loop inside a URL attribute cannot build a scheme from several values")
    func loopInURL() throws {
        let error = try #require(try compileError("<a href=\"{{#each parts}}{{.}}{{/each}}\">"))
        #expect(error.message.contains("URL attribute"))
        #expect(try compileError("<a href=\"/tags/{{#each parts}}{{.}}/{{/each}}\">") == nil)
    }

    /// Character references hide their decoded character, so they never settle a URL.
    @Test("a character reference cannot smuggle a scheme colon past the URL check")
    func characterReferenceInURL() throws {
        #expect(try compileError("<a href=\"{{ a }}&#58;{{ b }}\">") != nil)
        #expect(try compileError("<a href=\"{{ a }}&colon;{{ b }}\">") != nil)
    }
}
