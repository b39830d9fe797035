import Foundation
import Testing

@testable import HTTPServer

struct RequestParsingTests {
    @Test("query items decode percent escapes and '+' as space, and keep malformed escapes literally")
    func queryItems() {
        let request = Request(
            method: .get, path: "/", query: "q=caf%C3%A9+au+lait&empty=&flag&&bad=%zz%4&pct=100%&q=second")

        let items = request.queryItems

        #expect(items.map(\.name) == ["q", "empty", "flag", "bad", "pct", "q"])
        #expect(items.map(\.value) == ["café au lait", "", "", "%zz%4", "100%", "second"])
        #expect(request.query("q") == "café au lait")
        #expect(request.query("missing") == nil)
        #expect(Request(method: .get, path: "/").queryItems.isEmpty)
    }

    @Test("invalid UTF-8 in an escape decodes to the replacement character instead of failing")
    func invalidUTF8InQuery() {
        let request = Request(method: .get, path: "/", query: "x=%FF%FE&y=%C3")
        #expect(request.query("x") == "\u{FFFD}\u{FFFD}")
        #expect(request.query("y") == "\u{FFFD}")
    }

    @Test("a request target splits into a decoded path and the raw query")
    func targetSplitting() {
        #expect(Request.split(target: "/a%20b/caf%C3%A9?x=1+2%26") == ("/a b/café", "x=1+2%26"))
        #expect(Request.split(target: "/plus+stays?") == ("/plus+stays", ""))
        #expect(Request.split(target: "http://example.com/p?q#frag") == ("/p", "q"))
        #expect(Request.split(target: "http://example.com") == ("/", ""))
        #expect(Request.split(target: "/bad%zz%") == ("/bad%zz%", ""))
    }

    @Test("cookies parse from every Cookie header, first value wins, quotes are removed")
    func cookies() {
        var headers: HTTPHeaders = ["Cookie": "__Host-session=abc123; theme=\"dark\""]
        headers.add("cookie", "theme=light; lang=en")
        let request = Request(method: .get, path: "/", headers: headers)

        #expect(request.cookies == ["__Host-session": "abc123", "theme": "dark", "lang": "en"])
    }

    @Test("malformed cookie pairs are skipped without affecting the valid ones")
    func malformedCookies() {
        let header = "novalue; =empty; bad name=x; ok=1;;; a=b=c; ctl=\u{7}x; quote=a\"b; spaced = 2 ;="
        let request = Request(method: .get, path: "/", headers: ["Cookie": header])

        #expect(request.cookies == ["ok": "1", "a": "b=c", "spaced": "2"])
    }

    @Test("one cookie by name is the dictionary's value: first valid pair wins, malformed ones are passed over")
    func cookieByName() {
        var headers: HTTPHeaders = ["Cookie": "theme=\"dark\"; ctl=\u{7}x; bad name=1; ctl=ok"]
        headers.add("cookie", "theme=light; lang=en")
        let request = Request(method: .get, path: "/", headers: headers)

        #expect(request.cookie("theme") == "dark")
        #expect(request.cookie("ctl") == "ok", "the control character spoils the first pair, not the name")
        #expect(request.cookie("lang") == "en")
        #expect(request.cookie("bad name") == nil)
        #expect(request.cookie("them") == nil)
        #expect(request.cookie("") == nil)
        for name in ["theme", "ctl", "lang", "bad name", "them", ""] { #expect(request.cookie(name) == request.cookies[name]) }
    }

    @Test("random bytes in Cookie headers and queries never crash the parsers")
    func parsersSurviveGarbage() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("=;%+& \"\t\\abc\u{0}\u{7F}é".unicodeScalars)
        for _ in 0..<2000 {
            let length = Int.random(in: 0..<40, using: &generator)
            let text = String(
                String.UnicodeScalarView((0..<length).map { _ in alphabet.randomElement(using: &generator)! }))
            let request = Request(method: .get, path: "/", query: text, headers: ["Cookie": text])
            _ = request.cookies
            _ = request.queryItems
            _ = Request.split(target: text)
        }
    }

    @Test("header lookup ignores case; setting replaces every value; nil removes")
    func headers() {
        var headers: HTTPHeaders = ["Set-Cookie": "a=1"]
        headers.add("set-cookie", "b=2")
        headers.add("X-Other", "x")

        #expect(headers["SET-COOKIE"] == "a=1")
        #expect(headers.values("Set-Cookie") == ["a=1", "b=2"])
        headers["set-Cookie"] = "c=3"
        #expect(headers.values("Set-Cookie") == ["c=3"])
        #expect(headers.map(\.name) == ["Set-Cookie", "X-Other"])
        headers["x-other"] = nil
        #expect(headers.contains("X-Other") == false)
        #expect(headers.count == 1)
    }

    @Test("statuses compare by code and carry standard reason phrases")
    func statuses() {
        var custom = HTTPStatus(code: 404)
        custom.reasonPhrase = "Gone Fishing"
        #expect(custom == .notFound)
        #expect(HTTPStatus.payloadTooLarge.reasonPhrase == "Payload Too Large")
        #expect(HTTPStatus(code: 599).reasonPhrase == "Status 599")
    }

    @Test("response helpers set content types; JSON leaves slashes unescaped")
    func responseHelpers() throws {
        struct Payload: Encodable { let url: String }
        let json = Response.json(Payload(url: "https://grain.social/a"))
        guard case .bytes(let bytes) = json.body else {
            Issue.record("expected bytes")
            return
        }
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"url":"https://grain.social/a"}"#)
        #expect(json.headers["Content-Type"] == "application/json")
        #expect(Response.html("<p>").headers["Content-Type"] == "text/html; charset=utf-8")
        let redirect = Response.redirect(to: "/login")
        #expect(redirect.status == .seeOther)
        #expect(redirect.headers["Location"] == "/login")
    }

    @Test("If-None-Match matching follows weak comparison and accepts lists and *")
    func entityTags() {
        #expect(Response.entityTagList("\"a\", \"b\"", matches: "\"b\""))
        #expect(Response.entityTagList("W/\"a\"", matches: "\"a\""))
        #expect(Response.entityTagList("*", matches: "\"a\""))
        #expect(!Response.entityTagList("\"ab\"", matches: "\"a\""))
    }
}
