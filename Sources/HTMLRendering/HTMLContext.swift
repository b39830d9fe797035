/// Where the literal HTML of a template has left the browser's tokenizer: the basis for choosing, at compile
/// time, how each interpolation is escaped or whether it is refused.
///
/// This follows the WHATWG tokenizer closely enough to place `{{ }}` correctly in ordinary markup; anything it
/// does not model (CDATA, `<plaintext>`, `<!--` inside `<script>`) is a compile error rather than a guess.
/// Fields that do not matter in the current state are kept at their defaults, so two contexts can be compared
/// with `==` when the branches of a section meet.
struct HTMLContext: Equatable, Sendable {
    enum State: Equatable, Sendable {
        case data, rcData, rawText
        case tagOpen, endTagOpen, tagName
        case beforeAttributeName, attributeName, afterAttributeName, beforeAttributeValue
        case quotedAttributeValue(Unicode.Scalar), unquotedAttributeValue, afterAttributeValue, selfClosing
        case markupDeclaration, comment, bogusComment
    }

    var state: State = .data
    /// The tag being read, or in raw text and RCDATA the element whose end tag closes it.
    var tagName = ""
    var isEndTag = false
    var attributeName = ""
    /// The current attribute value has a non-space literal character or an interpolation.
    var valueStarted = false
    var valueInterpolated = false
    /// A literal `/`, `?` or `#`, or a `:` before any interpolation, has fixed the URL's scheme.
    var urlSettled = false
    /// Inside `&…;` of an attribute value, whose decoded character is unknown here.
    var inCharacterReference = false
    /// The literal `type` value of a `<script>`, to recognise `application/json`.
    var typeText = ""
    var typeSeen = false
    var scriptIsJSON = false
    /// Look-ahead: after `<!` in a declaration, after `<` in raw text, the last characters of a comment.
    var pending = ""
    var commentLength = 0
    /// Set after a section tag inside a tag: the next character must not continue an attribute name.
    var separatorRequired = false
    /// Set after a section tag inside a tag: a `=` would attach a value to an attribute on one branch only.
    var equalsForbidden = false

    /// A short phrase for error messages ("the href attribute of <a>").
    var summary: String {
        switch state {
        case .data: "text"
        case .rcData: "the text of <\(tagName)>"
        case .rawText: "the content of <\(tagName)>"
        case .quotedAttributeValue, .unquotedAttributeValue, .beforeAttributeValue:
            "the \(attributeName) attribute of <\(tagName)>"
        case .markupDeclaration, .comment, .bogusComment: "an HTML comment"
        case .tagOpen, .endTagOpen: "a tag name"
        default: "the tag <\(isEndTag ? "/" : "")\(tagName)>"
        }
    }

    /// Normalises the context at `{{#…}}`, `{{else}}` and `{{/…}}`.
    ///
    /// Inside a tag, the branches may end between attributes in slightly different tokenizer states; they all
    /// become "before attribute name", with flags that reject the characters on which those states differ.
    mutating func enterSectionBoundary(line: Int) throws(HTMLContextError) {
        switch state {
        case .data, .rcData, .rawText, .quotedAttributeValue, .comment, .bogusComment:
            return
        case .beforeAttributeName, .afterAttributeName, .afterAttributeValue, .attributeName:
            separatorRequired = separatorRequired || state == .attributeName
            equalsForbidden = true
            state = .beforeAttributeName
            attributeName = ""
            resetValue()
        default:
            throw HTMLContextError(line: line, message: "a section tag cannot appear in \(summary)")
        }
    }

    /// The context a loop body is compiled in: later iterations follow earlier output, so the attribute value
    /// is treated as already started and interpolated.
    func enteringLoopBody() -> HTMLContext {
        var context = self
        if case .quotedAttributeValue = state {
            context.valueStarted = true
            context.valueInterpolated = true
        }
        return context
    }

    /// Merges the contexts at the end of two branches, or nil when they differ in a way that matters.
    /// Mergeable flags take the stricter value.
    func joined(with other: HTMLContext) -> HTMLContext? {
        var merged = self
        merged.valueStarted = valueStarted || other.valueStarted
        merged.valueInterpolated = valueInterpolated || other.valueInterpolated || typeText != other.typeText
        merged.typeText = typeText == other.typeText ? typeText : ""
        merged.urlSettled = urlSettled && other.urlSettled
        merged.scriptIsJSON = scriptIsJSON && other.scriptIsJSON
        merged.typeSeen = typeSeen || other.typeSeen
        merged.separatorRequired = separatorRequired || other.separatorRequired
        merged.equalsForbidden = equalsForbidden || other.equalsForbidden
        var counterpart = other
        counterpart.valueStarted = merged.valueStarted
        counterpart.valueInterpolated = merged.valueInterpolated
        counterpart.typeText = merged.typeText
        counterpart.urlSettled = merged.urlSettled
        counterpart.scriptIsJSON = merged.scriptIsJSON
        counterpart.typeSeen = merged.typeSeen
        counterpart.separatorRequired = merged.separatorRequired
        counterpart.equalsForbidden = merged.equalsForbidden
        return merged == counterpart ? merged : nil
    }

    /// Records that an interpolation was written at this point.
    mutating func noteInterpolation() {
        if case .quotedAttributeValue = state {
            valueStarted = true
            valueInterpolated = true
            inCharacterReference = false
        }
    }

    mutating func resetValue() {
        valueStarted = false
        valueInterpolated = false
        urlSettled = false
        inCharacterReference = false
        typeText = ""
    }
}

/// A problem found by the HTML context scanner; the compiler adds the file name.
struct HTMLContextError: Error {
    let line: Int
    let message: String
}
