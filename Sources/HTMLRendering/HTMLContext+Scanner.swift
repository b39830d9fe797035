import Foundation

extension HTMLContext {
    /// Advances the context over a run of literal template text.
    /// - Parameters:
    ///   - text: literal markup between template tags.
    ///   - line: the line on which `text` starts, for error messages.
    mutating func consume(_ text: String, line: Int) throws(HTMLContextError) {
        var line = line
        for scalar in text.unicodeScalars {
            try step(scalar, line: line)
            if scalar == "\n" { line += 1 }
        }
    }

    private mutating func step(_ char: Unicode.Scalar, line: Int) throws(HTMLContextError) {
        switch state {
        case .data:
            if char == "<" { state = .tagOpen }
        case .rcData, .rawText:
            try stepRawText(char, line: line)
        case .tagOpen:
            if Self.isLetter(char) {
                beginTag(char, isEnd: false)
            } else if char == "/" {
                state = .endTagOpen
            } else if char == "!" {
                state = .markupDeclaration
            } else if char == "?" {
                state = .bogusComment
            } else {
                state = .data
                try step(char, line: line)
            }
        case .endTagOpen:
            if Self.isLetter(char) {
                beginTag(char, isEnd: true)
            } else {
                state = char == ">" ? .data : .bogusComment
            }
        case .tagName:
            if Self.isSpace(char) {
                state = .beforeAttributeName
            } else if char == "/" {
                state = .selfClosing
            } else if char == ">" {
                try emitTag(line: line)
            } else {
                tagName.unicodeScalars.append(Self.lowered(char))
            }
        case .beforeAttributeName:
            try stepBeforeAttributeName(char, line: line)
        case .attributeName:
            if Self.isSpace(char) {
                state = .afterAttributeName
            } else if char == "/" || char == ">" {
                state = .afterAttributeName
                try step(char, line: line)
            } else if char == "=" {
                state = .beforeAttributeValue
            } else {
                attributeName.unicodeScalars.append(Self.lowered(char))
            }
        case .afterAttributeName:
            if Self.isSpace(char) { return }
            if char == "/" {
                state = .selfClosing
            } else if char == "=" {
                state = .beforeAttributeValue
            } else if char == ">" {
                try emitTag(line: line)
            } else {
                beginAttribute(char)
            }
        case .beforeAttributeValue:
            if Self.isSpace(char) { return }
            if char == "\"" || char == "'" {
                state = .quotedAttributeValue(char)
            } else if char == ">" {
                try emitTag(line: line)
            } else {
                state = .unquotedAttributeValue
                appendToValue(char)
            }
        case .quotedAttributeValue(let quote):
            if char == quote {
                finishValue()
                state = .afterAttributeValue
            } else {
                appendToValue(char)
            }
        case .unquotedAttributeValue:
            if Self.isSpace(char) {
                finishValue()
                state = .beforeAttributeName
            } else if char == ">" {
                finishValue()
                try emitTag(line: line)
            } else {
                appendToValue(char)
            }
        case .afterAttributeValue, .selfClosing:
            if char == ">" {
                try emitTag(line: line)
            } else if char == "/" && state == .afterAttributeValue {
                state = .selfClosing
            } else {
                state = .beforeAttributeName
                if !Self.isSpace(char) { try step(char, line: line) }
            }
        case .markupDeclaration:
            try stepMarkupDeclaration(char, line: line)
        case .comment:
            stepComment(char)
        case .bogusComment:
            if char == ">" { self = HTMLContext() }
        }
    }

    private mutating func stepBeforeAttributeName(_ char: Unicode.Scalar, line: Int) throws(HTMLContextError) {
        if Self.isSpace(char) {
            separatorRequired = false
        } else if char == "/" || char == ">" {
            separatorRequired = false
            equalsForbidden = false
            state = .afterAttributeName
            try step(char, line: line)
        } else if char == "=" && equalsForbidden {
            throw HTMLContextError(
                line: line,
                message: "`=` after a section tag inside <\(tagName)> is ambiguous; keep each attribute and its value inside one branch"
            )
        } else if separatorRequired {
            throw HTMLContextError(
                line: line,
                message: "an attribute name in <\(tagName)> runs into a section tag; put a space before the section tag's end"
            )
        } else {
            beginAttribute(char)
        }
    }

    private mutating func beginTag(_ first: Unicode.Scalar, isEnd: Bool) {
        self = HTMLContext(state: .tagName, isEndTag: isEnd)
        tagName.unicodeScalars.append(Self.lowered(first))
    }

    private mutating func beginAttribute(_ first: Unicode.Scalar) {
        state = .attributeName
        attributeName = ""
        attributeName.unicodeScalars.append(Self.lowered(first))
        resetValue()
        separatorRequired = false
        equalsForbidden = false
    }

    private mutating func appendToValue(_ char: Unicode.Scalar) {
        if tagName == "script" && attributeName == "type" { typeText.unicodeScalars.append(char) }
        if inCharacterReference {
            if Self.isLetter(char) || Self.isDigit(char) || char == "#" { return }
            inCharacterReference = false
            if char == ";" { return }
        }
        if char == "&" {
            inCharacterReference = true
            valueStarted = true
            return
        }
        if !Self.isSpace(char) { valueStarted = true }
        if char == "/" || char == "?" || char == "#" || (char == ":" && !valueInterpolated) {
            urlSettled = true
        }
    }

    private mutating func finishValue() {
        guard tagName == "script", attributeName == "type", !isEndTag, !typeSeen else { return }
        typeSeen = true
        let type = typeText.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        scriptIsJSON = !valueInterpolated && type == "application/json"
    }

    /// Ends a tag: start tags of raw-text elements switch the tokenizer; everything else returns to text.
    private mutating func emitTag(line: Int) throws(HTMLContextError) {
        let name = tagName
        let isJSON = scriptIsJSON
        let wasEndTag = isEndTag
        self = HTMLContext()
        guard !wasEndTag else { return }
        switch name {
        case "script", "style", "xmp", "iframe", "noembed", "noframes":
            state = .rawText
            tagName = name
            scriptIsJSON = name == "script" && isJSON
        case "title", "textarea":
            state = .rcData
            tagName = name
        case "plaintext":
            throw HTMLContextError(line: line, message: "<plaintext> is not supported in templates")
        default:
            break
        }
    }
}
