import ATProto
import Testing

@testable import App

@Suite struct RichTextTests {
    @Test("links, mentions and tags are found with UTF-8 byte ranges, trailing punctuation left out")
    func facets() {
        let text = "Vê 👀 (https://example.com/a?b=1). @maya.home.test, #lisboa! #2026 #"
        let found = RichText.facets(in: text)
        let bytes = Array(text.utf8)
        let covered = found.map { String(decoding: bytes[$0.start..<$0.end], as: UTF8.self) }
        #expect(covered == ["https://example.com/a?b=1", "@maya.home.test", "#lisboa"])
        #expect(found.map(\.feature) == [.link("https://example.com/a?b=1"), .mention("maya.home.test"), .tag("lisboa")])
    }

    @Test("what an upstream sends becomes links only when well formed: http(s) or a DID; others stay text")
    func segments() {
        func link(_ start: Int, _ end: Int, _ feature: JSONValue) -> JSONValue {
            .object(["index": .object(["byteStart": .integer(Int64(start)), "byteEnd": .integer(Int64(end))]), "features": .array([feature])])
        }
        let text = "a é b c d"
        let facets: [JSONValue] = [
            link(0, 1, .object(["$type": .string("app.bsky.richtext.facet#link"), "uri": .string("javascript:alert(1)")])),
            link(2, 3, .object(["$type": .string("app.bsky.richtext.facet#link"), "uri": .string("https://x.example")])),  // splits é
            link(5, 6, .object(["$type": .string("app.bsky.richtext.facet#link"), "uri": .string("https://b.example")])),
            link(5, 8, .object(["$type": .string("app.bsky.richtext.facet#link"), "uri": .string("https://overlap.example")])),
            link(7, 8, .object(["$type": .string("app.bsky.richtext.facet#mention"), "did": .string("did:plc:abc")])),
            link(9, 99, .object(["$type": .string("app.bsky.richtext.facet#link"), "uri": .string("https://far.example")])),
        ]
        let segments = RichText.segments(text, facets: facets)
        #expect(segments.map(\.text).joined() == text, "nothing of the text is lost")
        #expect(segments.filter { $0.href != nil }.map(\.href) == ["https://b.example", "/profile/did:plc:abc"])
        #expect(segments.first { $0.href == "https://b.example" }?.external == true)
        #expect(segments.first { $0.href == "/profile/did:plc:abc" }?.external == false)
    }

    @Test("a link whose text shows one address and leads to another stays text; a shortened address or a word may link (N8)")
    func misleadingLinks() {
        func segments(_ text: String, _ uri: String) -> [RichText.Segment] {
            RichText.segments(
                text,
                facets: [
                    .object([
                        "index": .object(["byteStart": .integer(0), "byteEnd": .integer(Int64(text.utf8.count))]),
                        "features": .array([.object(["$type": .string("app.bsky.richtext.facet#link"), "uri": .string(uri)])]),
                    ])
                ])
        }
        #expect(segments("https://bank.example/login", "https://evil.example/login").allSatisfy { $0.href == nil })
        #expect(segments("bank.example", "https://evil.example").allSatisfy { $0.href == nil })
        #expect(segments("example.com/a-long-pa…", "https://example.com/a-long-path").first?.href == "https://example.com/a-long-path")
        #expect(segments("https://Example.com", "https://example.com/").first?.href == "https://example.com/")
        #expect(segments("this", "https://example.com/").first?.href == "https://example.com/")
    }
}
