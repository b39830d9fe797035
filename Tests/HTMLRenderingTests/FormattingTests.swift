import HTMLRendering
import Testing

struct FormattingTests {
    /// Scalars print without locale and without float noise.
    @Test(
        "numbers render plainly: ints as ints, doubles with at most six decimals and no trailing zeros",
        arguments: [
            (TemplateValue.int(42), "42"), (.int(-7), "-7"), (.double(2.5), "2.5"), (.double(2.0), "2"),
            (.double(3.14159265), "3.141593"), (.double(-0.1), "-0.1"), (.double(-0.0000001), "0"),
            (.double(0.000001), "0.000001"), (.double(1e13), "10000000000000"), (.double(1234.5e-2), "12.345"),
            (.bool(true), "true"), (.bool(false), "false"), (.null, ""),
        ]
    )
    func scalars(value: TemplateValue, expected: String) throws {
        #expect(try render("<p>{{ v }}</p>", ["v": value]) == "<p>\(expected)</p>")
    }

    /// Missing data renders as empty, not as an error.
    @Test("a missing value renders as nothing")
    func missingValue() throws {
        #expect(try render("<p>[{{ nothing.here }}]</p>") == "<p>[]</p>")
    }

    /// Printing a container is a template bug, reported where it happens.
    @Test("printing an array or a dictionary is a render error naming the file and line")
    func arrayIsNotPrintable() throws {
        let error = try #require(throws: TemplateError.self) {
            try render("<p>\n{{ items }}</p>", ["items": [1, 2]])
        }
        #expect(error.file == "page.html")
        #expect(error.line == 2)
        #expect(error.message.contains("array"))
    }

    /// Whitespace handling is deliberately simple: nothing is trimmed.
    @Test("whitespace and newlines around tags are kept exactly as written")
    func whitespaceIsVerbatim() throws {
        let source = "<ul>\n  {{#each items}}\n  <li>{{.}}</li>\n  {{/each}}\n</ul>\n"
        #expect(try render(source, ["items": ["a"]]) == "<ul>\n  \n  <li>a</li>\n  \n</ul>\n")
    }
}
