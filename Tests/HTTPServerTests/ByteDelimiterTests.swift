import Testing

@testable import HTTPServer

/// `?`, `#` and spaces are found by byte, so a combining mark right after one can't hide it.
struct ByteDelimiterTests {
    @Test("a request target splits at ? and # even when a combining mark follows them")
    func targetSplit() {
        let split = Request.split(target: "/p?\u{301}a=1#\u{301}frag")
        #expect(split.path == "/p")
        #expect(split.query == "\u{301}a=1")
        let noQuery = Request.split(target: "/p#\u{301}?x")
        #expect(noQuery.query == "")
    }

    @Test("trimming removes spaces and tabs before a combining mark and keeps the mark")
    func trimming() {
        #expect(Substring(" \u{301}W/\"x\"\t ").trimmingASCIISpaces() == "\u{301}W/\"x\"")
        #expect(Substring(" \t ").trimmingASCIISpaces() == "")
    }
}
