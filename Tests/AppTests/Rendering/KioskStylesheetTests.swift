import Foundation
import TestSupport
import Testing

/// The kiosk's rules in app.css hold on the wall tablets it is for (Safari 12, Android 7-era Chrome 55 to 64): an
/// old browser drops a declaration it cannot parse, and a whole rule when one selector of its list is unknown, so a
/// kiosk rule written with newer CSS silently loses its layout there.
@Suite struct KioskStylesheetTests {
    struct Rule {
        var selectors: [String]
        var declarations: [(property: String, value: String)]
    }

    /// Every innermost rule of the stylesheet (those inside `@media` and `@supports` included), comments removed.
    static func rules() throws -> [Rule] {
        var css = try String(contentsOf: repositoryRoot.appendingPathComponent("Public/css/app.css"), encoding: .utf8)
        css = css.replacingOccurrences(of: #"/\*[\s\S]*?\*/"#, with: "", options: .regularExpression)
        let pattern = try NSRegularExpression(pattern: #"([^{}]+)\{([^{}]*)\}"#)
        return pattern.matches(in: css, range: NSRange(css.startIndex..., in: css)).map { match in
            let text = { (i: Int) in String(css[Range(match.range(at: i), in: css)!]) }
            let selectors = text(1).split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            let declarations = text(2).split(separator: ";").compactMap { declaration -> (String, String)? in
                guard let colon = declaration.firstIndex(of: ":") else { return nil }
                return (
                    declaration[..<colon].trimmingCharacters(in: .whitespacesAndNewlines),
                    declaration[declaration.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
                )
            }
            return Rule(selectors: selectors, declarations: declarations)
        }
    }

    /// Rules the kiosk page uses: its own, the blurred fill and the avatars (the settings page is for phones).
    static func kioskRules() throws -> [Rule] {
        try rules().filter { rule in
            rule.selectors.contains { selector in
                (selector.contains(".kiosk") && !selector.contains(".kiosk-settings")) || selector.contains(".photo-fill")
                    || selector.contains(".avatar")
            }
        }
    }

    /// Properties the old tablets drop, and the browsers that first know them.
    static let newerProperties = [
        "inset": "Chrome 87, Safari 14.1", "aspect-ratio": "Chrome 88, Safari 15", "place-items": "Chrome 59",
        "place-content": "Chrome 59", "place-self": "Chrome 59", "gap": "on a flex box Chrome 84, Safari 14.1; on a grid Chrome 66",
        "row-gap": "Chrome 66",
    ]

    /// What Safari 12 or Chrome 55 to 64 do not parse, each with why the kiosk cannot use it.
    static func problems(in rule: Rule) -> [String] {
        var found: [String] = []
        let name = rule.selectors.joined(separator: ", ")
        let newer = [":focus-visible", ":is(", ":where(", ":has(", ":focus-within"]
        let withNewer = rule.selectors.filter { selector in newer.contains { selector.contains($0) } }
        if !withNewer.isEmpty && withNewer.count < rule.selectors.count {
            found.append("\(name): \(withNewer.joined(separator: ", ")) drops the whole rule on old browsers")
        }
        for (index, (property, value)) in rule.declarations.enumerated() {
            if let since = newerProperties[property] { found.append("\(name): \(property) (\(since))") }
            if property == "column-gap" && !rule.declarations.contains(where: { $0.property == "grid-column-gap" }) {
                found.append("\(name): column-gap without grid-column-gap (Chrome 66)")
            }
            if value.range(of: #"(rgb|rgba|hsl|hsla)\([^)]*/"#, options: .regularExpression) != nil {
                found.append("\(name): \(property): \(value): space-separated colour (Chrome 65, Safari 12.1)")
            }
            if value.range(of: #"\b[dsl]v[hw]\b|\d[dsl]v[hw]"#, options: .regularExpression) != nil {
                found.append("\(name): \(property): \(value): dynamic viewport units (Safari 15.4)")
            }
            if value.range(of: #"\b(clamp|min|max)\("#, options: .regularExpression) != nil {
                let fallback = rule.declarations[..<index].contains { $0.property == property && !$0.value.contains("(") }
                if !fallback {
                    found.append("\(name): \(property): \(value) with no plain value before it (Chrome 79, Safari 13.1)")
                }
            }
        }
        return found
    }

    @Test("the kiosk's rules use no CSS that Safari 12 or Android 7-era Chrome drop")
    func kioskRulesParseOnOldTablets() throws {
        let rules = try Self.kioskRules()
        #expect(rules.count > 20, "the kiosk's rules were found")
        #expect(rules.flatMap(Self.problems) == [])
    }

    @Test("the check finds what it looks for")
    func theCheckCanFail() {
        let rule = Rule(
            selectors: [".kiosk[data-awake] .kiosk__exit", ".kiosk__exit:focus-visible"],
            declarations: [
                ("inset", "0"), ("background", "rgb(0 0 0 / 0.45)"), ("font-size", "clamp(16px, 2vw, 28px)"),
                ("height", "100dvh"), ("gap", "12px"),
            ])
        #expect(Self.problems(in: rule).count == 6)
        let fine = Rule(
            selectors: [".kiosk__caption"],
            declarations: [("background", "rgba(0, 0, 0, 0.45)"), ("font-size", "22px"), ("font-size", "clamp(16px, 2vw, 28px)")])
        #expect(Self.problems(in: fine) == [])
    }
}
