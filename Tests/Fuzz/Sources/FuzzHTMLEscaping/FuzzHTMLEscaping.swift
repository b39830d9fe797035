import Foundation
import FuzzSupport
import HTMLRendering

// Input: an untrusted string (invalid UTF-8 is repaired with U+FFFD, as `String(decoding:)` does).
//
// Properties:
// - text and attribute escaping leave no raw `<`, `>`, `"`, `'` (nor, in attributes, a backtick) and decode
//   back to the input;
// - a URL is either blocked or passes attribute-escaped, and no `javascript:`, `data:` or `vbscript:` URL passes,
//   however it is disguised with case, leading controls or embedded tabs and newlines;
// - JSON for `<script type="application/json">` has no `<`, `>` or `&` and decodes back to the input;
// - a template with the input in text, RCDATA, attribute and URL context renders exactly as many `<`, `>`, `"`
//   and `'` as it does for an empty value (none come from the input), and one with the input as JSON in a
//   script element exactly as many `<` and `>` (inside JSON strings quotes are escaped with a backslash).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTMLEscaping(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = String(decoding: Fuzz.bytes(data, size), as: UTF8.self)

    let text = HTMLEscaping.text(input)
    Fuzz.require(!text.utf8.contains(where: Page.specials.contains), "text escape left a special: \(text)")
    Fuzz.require(Array(unescape(text).utf8) == Array(input.utf8), "text escape does not decode back: \(text)")

    let attribute = HTMLEscaping.attribute(input)
    Fuzz.require(
        !attribute.utf8.contains(where: { Page.specials.contains($0) || $0 == UInt8(ascii: "`") }),
        "attribute escape left a special: \(attribute)"
    )
    Fuzz.require(Array(unescape(attribute).utf8) == Array(input.utf8), "attribute escape does not decode back")

    let url = HTMLEscaping.url(input)
    Fuzz.require(url == HTMLEscaping.blockedURL || url == attribute, "URL is neither blocked nor escaped: \(url)")
    if url != HTMLEscaping.blockedURL {
        let seen = browserView(input)
        for scheme in ["javascript:", "data:", "vbscript:"] {
            Fuzz.require(!seen.starts(with: scheme.utf8), "URL \(input.debugDescription) passed the filter")
        }
    }

    let json = HTMLEscaping.json(.string(input))
    Fuzz.require(!json.utf8.contains(where: Array("<>&".utf8).contains), "JSON left a special: \(json)")
    let decoded = try? JSONDecoder().decode([String].self, from: Data("[\(json)]".utf8))
    Fuzz.require(decoded.map { Array($0[0].utf8) == Array(input.utf8) } ?? false, "JSON does not decode back: \(json)")

    for (name, specials) in Page.templates {
        let rendered: String
        do {
            rendered = try Page.renderer.render(name, ["v": .string(input)])
        } catch {
            Fuzz.fail("rendering \(name) failed: \(error)")
        }
        Fuzz.require(
            Page.counts(rendered, specials) == Page.baselines[name],
            "the input added markup characters to \(name):\n\(rendered)"
        )
    }
    return 0
}

/// The templates: every context a value can take, several times, and the characters each must not gain.
enum Page {
    static let specials = Set("<>\"'".utf8)

    static let templates: [(name: String, specials: Set<UInt8>)] = [
        ("page", specials),
        ("data", Set("<>".utf8)),
    ]

    static let sources = [
        "page": """
        <!doctype html><html><head><title>{{v}}</title></head>
        <body><p class="c">{{v}}</p><textarea>{{v}}</textarea>
        <a href="{{v}}" title="{{v}}" data-x='{{v}}'>{{v}}</a><img src='{{v}}' alt="{{v}}">
        <a href="/p/{{v}}?q={{v}}#{{v}}">x</a><form action="{{v}}"></form></body></html>
        """,
        "data": """
        <p>{{v}}</p><script type="application/json">{{json v}}</script><script type="application/json">
        {"a": {{json v}} }</script>
        """,
    ]

    /// Written once per process to a temporary directory, because the renderer loads templates from disk.
    static let renderer: TemplateRenderer = {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("fuzz-html-\(ProcessInfo.processInfo.processIdentifier)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for (name, source) in sources {
                try Data(source.utf8).write(to: directory.appendingPathComponent(name + ".html"))
            }
            let renderer = try TemplateRenderer(directory: directory.path)
            try FileManager.default.removeItem(at: directory)
            return renderer
        } catch {
            fatalError("cannot set up the templates: \(error)")
        }
    }()

    /// How many of each special character the templates themselves render.
    static let baselines: [String: [UInt8: Int]] = {
        var result: [String: [UInt8: Int]] = [:]
        for (name, specials) in templates {
            guard let html = try? renderer.render(name, ["v": ""]) else { fatalError("\(name) does not render") }
            result[name] = counts(html, specials)
        }
        return result
    }()

    static func counts(_ html: String, _ specials: Set<UInt8>) -> [UInt8: Int] {
        var result: [UInt8: Int] = [:]
        for byte in html.utf8 where specials.contains(byte) { result[byte, default: 0] += 1 }
        return result
    }
}

/// Undoes the escaper's character references, byte by byte (Foundation's search would match canonically
/// equivalent text, not bytes).
func unescape(_ text: String) -> String {
    let references: [([UInt8], UInt8)] =
        ([
            ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&#96;", "`"),
        ] as [(String, Unicode.Scalar)]).map { (Array($0.0.utf8), UInt8(ascii: $0.1)) }
    let bytes = Array(text.utf8)
    var out: [UInt8] = []
    var index = 0
    outer: while index < bytes.count {
        if bytes[index] == UInt8(ascii: "&") {
            for (reference, character) in references where bytes[index...].starts(with: reference) {
                out.append(character)
                index += reference.count
                continue outer
            }
        }
        out.append(bytes[index])
        index += 1
    }
    return String(decoding: out, as: UTF8.self)
}

/// The URL as a browser's parser looks for its scheme: leading C0 controls and spaces dropped, tabs and newlines
/// removed anywhere, ASCII letters lower-cased.
func browserView(_ url: String) -> [UInt8] {
    var bytes = Array(url.utf8).filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
    bytes = Array(bytes.drop { $0 <= 0x20 })
    return bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
}
