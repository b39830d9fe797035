import HTMLRendering
import Testing

struct CompileErrorTests {
    /// Each case puts the offending interpolation on line 3, so the reported line is checked too.
    @Test(
        "interpolation where no escaping is safe is refused at load time with file and line",
        arguments: [
            ("<p class={{ c }}>", "unquoted"),
            ("<p class=x{{ c }}>", "unquoted"),
            ("<script>var x = {{ v }};</script>", "<script>"),
            ("<script type=\"module\">{{json v}}</script>", "<script>"),
            ("<style>p { color: {{ c }} }</style>", "<style>"),
            ("<a onclick=\"go('{{ v }}')\">x</a>", "event handler"),
            ("<svg><g onLoad=\"{{ v }}\"></g></svg>", "event handler"),
            ("<p style=\"color: {{ c }}\">x</p>", "style"),
            ("<img srcset=\"{{ s }} 2x\">", "srcset"),
            ("<iframe srcdoc=\"{{ s }}\"></iframe>", "srcdoc"),
            ("<svg><a><animate attributeName=\"href\" to=\"{{ u }}\"/></a></svg>", "SVG animation"),
            ("<!-- {{ v }} -->", "comment"),
            ("<{{ tag }}>", "tag name"),
            ("<p {{ attrs }}>", "attribute name"),
            ("<p data-{{ name }}=\"1\">", "attribute name"),
            ("<a href=\"x{{ u }}\">", "URL attribute"),
            ("<a href=\"{{ a }}{{ b }}\">", "URL attribute"),
            ("<a href=\"{{ a }}:{{ b }}\">", "URL attribute"),
            ("<p>{{json v}}</p>", "{{json}}"),
            ("<p title=\"{{json v}}\">", "{{json}}"),
            ("<p>{{{ raw }}}</p>", "SafeHTML"),
            ("<p>{{& raw }}</p>", "SafeHTML"),
        ]
    )
    func refusedInterpolation(line3: String, expected: String) throws {
        let error = try #require(try compileError("<!doctype html>\n<main>\n\(line3)\n</main>"))
        #expect(error.file == "page.html")
        #expect(error.line == 3)
        #expect(error.message.contains(expected), "\(error)")
    }

    /// Errors print as `file:line: message`, the format editors jump to.
    @Test("the error description reads file:line: message")
    func description() throws {
        let error = try #require(try compileError("<p>\n<a class={{ c }}>"))
        #expect(error.description == "page.html:2: " + error.message)
    }

    /// Errors in subdirectories name the file as the template name plus `.html`.
    @Test("a template in a subdirectory reports its relative path")
    func nestedFileName() throws {
        let error = try #require(try loadError(["partials/bad.html": "<a onclick=\"{{ x }}\"></a>"]))
        #expect(error.file == "partials/bad.html")
        #expect(error.line == 1)
    }

    /// Template syntax mistakes fail at load time instead of rendering something surprising.
    @Test(
        "malformed template syntax is refused",
        arguments: [
            ("{{#if a}}x", "unclosed"), ("{{/if}}", "without a matching"), ("{{#if a}}x{{/each}}", "closes"),
            ("{{else}}", "outside a section"), ("{{#if a}}{{else}}{{else}}{{/if}}", "second"),
            ("{{#loop a}}{{/loop}}", "expected"), ("{{ a b }}", "unexpected"), ("{{ a..b }}", "invalid path"),
            ("{{ }}", "empty tag"), ("{{ a", "unclosed"), ("{{> ../secret }}", "partial name"), ("{{ @foo }}", "invalid path"),
        ]
    )
    func malformed(source: String, expected: String) throws {
        let error = try #require(try compileError(source))
        #expect(error.message.contains(expected), "\(error)")
    }

    /// Markup whose parsing the scanner does not model is refused rather than guessed.
    @Test(
        "markup the context scanner does not model is refused",
        arguments: [
            ("<script><!--<script></script>--></script>", "<!--"), ("<![CDATA[ x ]]>", "CDATA"),
            ("<plaintext>", "plaintext"), ("<p title=\"x", "ends inside"), ("<!-- open", "ends inside"),
            ("<script>", "ends inside"),
        ]
    )
    func unsupportedMarkup(source: String, expected: String) throws {
        let error = try #require(try compileError(source))
        #expect(error.message.contains(expected), "\(error)")
    }

    /// The scanner must not reject everyday markup.
    @Test("literal tags that are not interpolations compile: doctype, comments, void and self-closing elements")
    func ordinaryMarkupCompiles() throws {
        let source = """
            <!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><!-- a > b --><!----><!--->
            <link rel="stylesheet" href="/app.css"/></head><body><br/><input disabled value='{{ v }}'>
            <p>{{! a comment with <tags> }}{{!-- a long comment with }} inside --}}{{ v }}</p></body></html>
            """
        #expect(try render(source, ["v": "1"]).contains("<input disabled value='1'>"))
        #expect(try render(source, ["v": "1"]).contains("<p>1</p>"))
    }
}
