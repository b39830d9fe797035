import HTTPServer
import Testing

/// Regressions found by the fuzz targets in Tests/Fuzz: the delimiters of cookies, query strings and multipart
/// headers are ASCII, and a combining mark right after one (which Swift joins with it into one Character) must
/// not hide it.
struct CombiningMarkDelimiterTests {
    /// FuzzCookies found a cookie whose value starts with a combining mark dropped: after `=` the mark made one
    /// Character with the `=` (no `=` seemed present) or with the space before it (which then was not trimmed).
    @Test("a cookie value starting with a combining mark is kept")
    func cookieValueStartingWithCombiningMark() {
        // setup
        let request = Request(method: .get, path: "/", headers: ["Cookie": "e=\u{59D}x; f= \u{59D}y; theme=dark"])

        // MUT
        let cookies = request.cookies

        // validate
        #expect(cookies == ["e": "\u{59D}x", "f": "\u{59D}y", "theme": "dark"])
    }

    /// The same join after `;` made the rest of the header part of the previous value.
    @Test("a combining mark after ';' does not merge two cookies into one value")
    func combiningMarkAfterSemicolon() {
        // setup
        let request = Request(method: .get, path: "/", headers: ["Cookie": "a=1;\u{301}b=2"])

        // MUT
        let cookies = request.cookies

        // validate: `b` is no token, so only `a` remains, without the rest of the header in its value.
        #expect(cookies == ["a": "1"])
    }

    /// FuzzURLEncodedForm found `Y&\u{6EB}pp` read as two query items but three form fields.
    @Test("a combining mark after '&' or '=' in a query splits like the same form body")
    func queryDelimitersBeforeCombiningMarks() throws {
        // setup
        let text = "Y&\u{6EB}pp&k=\u{301}v"
        let request = Request(method: .get, path: "/", query: text)

        // MUT
        let items = request.queryItems
        let form = try URLEncodedForm(Array(text.utf8))

        // validate
        #expect(items.map(\.name) == ["Y", "\u{6EB}pp", "k"])
        #expect(items.map(\.value) == ["", "", "\u{301}v"])
        #expect(items.map(\.name) == form.fields.map(\.name))
        #expect(items.map(\.value) == form.fields.map(\.value))
    }

    /// FuzzMultipart found a field name starting with a combining mark read with its quotes still on: the opening
    /// `"` and the mark were one Character.
    @Test("multipart names and filenames starting with a combining mark lose their quotes")
    func multipartQuotedNameStartingWithCombiningMark() throws {
        // setup
        let body = Array(
            ("--B\r\nContent-Disposition: form-data; name=\"\u{301}x\"; filename=\"\u{301}y.jpg\"\r\n\r\nv\r\n"
                + "--B\r\nContent-Disposition: form-data; name=\u{301}z\r\n\r\nw\r\n--B--\r\n").utf8
        )

        // MUT
        let form = try MultipartForm(body, contentType: "multipart/form-data; boundary=B")

        // validate: compared by scalars, since String `==` would not notice a stray mark.
        let filename = try #require(form.parts.first?.filename)
        #expect(
            form.parts.map { Array($0.name.unicodeScalars) }
                == ["\u{301}x", "\u{301}z"].map { Array($0.unicodeScalars) }
        )
        #expect(Array(filename.unicodeScalars) == Array("\u{301}y.jpg".unicodeScalars))
        #expect(form.parts.map(\.body) == [.bytes(Array("v".utf8)), .bytes(Array("w".utf8))])
    }
}
