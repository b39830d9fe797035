/// How an interpolated value is written, decided once at compile time.
enum OutputMode: Sendable, Equatable {
    /// Between tags: escaped; ``SafeHTML`` raw.
    case text
    /// Inside `<title>` or `<textarea>`: escaped, ``SafeHTML`` included (markup means nothing there).
    case rcData
    /// Inside a quoted attribute value: attribute-escaped, ``SafeHTML`` included.
    case attribute
    /// At the start of a URL attribute value: scheme-filtered, then attribute-escaped.
    case url
    /// `{{json path}}` inside `<script type="application/json">`.
    case json
}

extension HTMLContext {
    enum AttributeKind: Equatable {
        case plain
        case url
        case refused(String)
    }

    private static let urlAttributes: Set<String> = [
        "href", "src", "action", "formaction", "poster", "cite", "background", "longdesc", "manifest", "icon",
        "codebase", "data", "ping", "archive", "classid", "profile", "dynsrc", "lowsrc",
    ]

    /// Classifies an attribute by name; a namespace prefix (`xlink:href`) is ignored, and names that look like
    /// URLs (`data-src`, `data-href`, `*url*`) count as URLs because scripts commonly copy them into `src`.
    static func kind(ofAttribute name: String) -> AttributeKind {
        let local = name.split(separator: ":").last.map(String.init) ?? name
        if name.hasPrefix("on") || local.hasPrefix("on") { return .refused("event handler attribute `\(name)`") }
        if local == "style" { return .refused("`style` attribute") }
        if local.hasSuffix("srcset") { return .refused("`\(name)` attribute (a list of URLs)") }
        if local == "srcdoc" { return .refused("`srcdoc` attribute (an HTML document)") }
        if urlAttributes.contains(local) || ["url", "uri", "src", "href"].contains(where: { local.contains($0) }) {
            return .url
        }
        return .plain
    }

    /// Chooses the output mode for `{{ path }}` (or `{{json path}}`) at this point, or explains why the value
    /// cannot go here.
    func outputMode(json: Bool, line: Int) throws(HTMLContextError) -> OutputMode {
        func refuse(_ message: String) -> HTMLContextError { HTMLContextError(line: line, message: message) }
        let jsonOnly = "{{json}} is only allowed inside <script type=\"application/json\">"
        switch state {
        case .data:
            guard !json else { throw refuse(jsonOnly) }
            return .text
        case .rcData:
            guard !json else { throw refuse(jsonOnly) }
            guard pending.isEmpty else { throw refuse("interpolation inside an end tag of <\(tagName)>") }
            return .rcData
        case .rawText:
            if json && tagName == "script" && scriptIsJSON && pending.isEmpty { return .json }
            if tagName == "script" {
                throw refuse(
                    scriptIsJSON
                        ? "use {{json path}} inside <script type=\"application/json\">"
                        : "interpolation inside <script> is not allowed; pass data with {{json path}} inside <script type=\"application/json\">"
                )
            }
            throw refuse("interpolation inside <\(tagName)> is not allowed")
        case .quotedAttributeValue:
            guard !json else { throw refuse(jsonOnly) }
            return try attributeMode(line: line)
        case .beforeAttributeValue, .unquotedAttributeValue:
            throw refuse(
                "unquoted value of attribute `\(attributeName)` in <\(tagName)>: templates must quote attribute values (\(attributeName)=\"{{…}}\")"
            )
        case .markupDeclaration, .comment, .bogusComment:
            throw refuse("interpolation inside an HTML comment is not allowed")
        case .tagOpen, .endTagOpen:
            throw refuse("interpolation in a tag name is not allowed")
        case .tagName, .beforeAttributeName, .attributeName, .afterAttributeName, .afterAttributeValue, .selfClosing:
            throw refuse(
                "interpolation inside the tag <\(tagName)> outside an attribute value (a tag or attribute name) is not allowed"
            )
        }
    }

    /// SVG animation elements can set another attribute (such as `href`) to any value, so their value-carrying
    /// attributes are refused like event handlers.
    private static let animationElements: Set<String> = ["animate", "set", "animatemotion", "animatetransform"]
    private static let animationAttributes: Set<String> = ["attributename", "from", "to", "by", "values"]

    private func attributeMode(line: Int) throws(HTMLContextError) -> OutputMode {
        if Self.animationElements.contains(tagName) && Self.animationAttributes.contains(attributeName) {
            throw HTMLContextError(
                line: line,
                message: "interpolation in the `\(attributeName)` attribute of the SVG animation element <\(tagName)> is not allowed"
            )
        }
        switch Self.kind(ofAttribute: attributeName) {
        case .refused(let what):
            throw HTMLContextError(line: line, message: "interpolation in the \(what) of <\(tagName)> is not allowed")
        case .plain:
            return .attribute
        case .url:
            if !valueStarted { return .url }
            if urlSettled { return .attribute }
            throw HTMLContextError(
                line: line,
                message: "interpolation in the URL attribute `\(attributeName)` of <\(tagName)> must start the value "
                    + "or follow a literal '/', '?', '#' or scheme ':'"
            )
        }
    }
}
