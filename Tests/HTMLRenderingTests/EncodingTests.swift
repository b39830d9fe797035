import Foundation
import HTMLRendering
import Testing

struct EncodingTests {
    struct Profile: Encodable {
        let displayName: String
        let avatar: URL?
    }

    struct Story: Encodable {
        let uri: String
        let caption: String?
        let width: Int
        let ratio: Double
        let isNew: Bool
        let tags: [String]
        let author: Profile
        let body: SafeHTML
        let createdAt: Date
    }

    struct Page: Encodable {
        let caption: String
        let stories: [Story]
    }

    static let story = Story(
        uri: "at://did:plc:abc/social.grain.story/3k",
        caption: nil,
        width: 2000,
        ratio: 0.75,
        isNew: true,
        tags: ["sky", "<b>"],
        author: Profile(displayName: "Alice", avatar: URL(string: "https://cdn.example/a.jpg")),
        body: SafeHTML(unsafeRaw: "<em>hi</em>"),
        createdAt: Date(timeIntervalSince1970: 1_700_000_000)
    )

    /// Page models are plain Encodable structs.
    @Test("an Encodable model converts to typed values, with SafeHTML as .safe and nil as .null")
    func modelConversion() throws {
        let value = try TemplateValue(encoding: Self.story)
        let expected: TemplateValue = [
            "uri": "at://did:plc:abc/social.grain.story/3k",
            "caption": .null,
            "width": 2000,
            "ratio": 0.75,
            "isNew": true,
            "tags": ["sky", "<b>"],
            "author": ["displayName": "Alice", "avatar": "https://cdn.example/a.jpg"],
            "body": .safe(SafeHTML(unsafeRaw: "<em>hi</em>")),
            "createdAt": "2023-11-14T22:13:20Z",
        ]
        #expect(value == expected)
    }

    /// A missing key would fall back to an outer scope; encoding nil as null prevents that.
    @Test("a nil optional does not fall back to an outer scope's value of the same name")
    func nilDoesNotLeak() throws {
        let page = Page(caption: "page caption", stories: [Self.story])
        let output = try render("{{#each stories}}[{{ caption }}]{{ body }}{{/each}}", try TemplateValue(encoding: page))
        #expect(output == "[]<em>hi</em>")
    }

    /// Upstream data must never be able to forge trusted markup.
    @Test("a dictionary shaped like an encoded SafeHTML stays an ordinary, escaped value")
    func markerShapeIsNotTrusted() throws {
        let encoded = try JSONEncoder().encode(SafeHTML(unsafeRaw: "<b>"))
        #expect(String(decoding: encoded, as: UTF8.self) == #""<b>""#)
        let hostile: [String: [String: String]] = ["x": ["html": "<script>", "__safeHTML__": "<script>"]]
        let value = try TemplateValue(encoding: hostile)
        guard case .dictionary(let outer) = value, case .dictionary(let inner)? = outer["x"] else {
            Issue.record("expected nested dictionaries, got \(value)")
            return
        }
        #expect(inner["html"] == "<script>")
        #expect(try render("{{ x.html }}", value) == "&lt;script&gt;")
    }

    /// Less common Encodable shapes convert without loss.
    @Test("top-level arrays, integers of every width and enums with raw values convert")
    func otherShapes() throws {
        enum Kind: String, Encodable { case photo }
        struct Mixed: Encodable {
            let small: Int8
            let big: UInt64
            let float: Float
            let kind: Kind
            let nested: [[Int]]
        }
        let value = try TemplateValue(encoding: [Mixed(small: -3, big: .max, float: 0.5, kind: .photo, nested: [[1], []])])
        let expected: TemplateValue = [["small": -3, "big": .double(Double(UInt64.max)), "float": 0.5, "kind": "photo", "nested": [[1], []]]]
        #expect(value == expected)
    }

    /// Prebuilt values inside a model survive conversion, trusted markup included.
    @Test("a TemplateValue property is taken over unchanged, .safe included")
    func embeddedTemplateValue() throws {
        struct Wrapper: Encodable {
            let extra: TemplateValue
        }
        let extra: TemplateValue = ["badge": .safe(SafeHTML(unsafeRaw: "<i>new</i>")), "n": 1]
        #expect(try TemplateValue(encoding: Wrapper(extra: extra)) == ["extra": extra])
    }
}
