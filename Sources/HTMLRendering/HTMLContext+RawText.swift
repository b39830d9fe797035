// Comments, `<!…>` declarations and the raw text of `<script>`, `<style>`, `<title>` and friends.

extension HTMLContext {
    mutating func stepMarkupDeclaration(_ char: Unicode.Scalar, line: Int) throws(HTMLContextError) {
        if pending == "-" {
            pending = ""
            if char == "-" {
                state = .comment
                commentLength = 0
            } else {
                state = char == ">" ? .data : .bogusComment
            }
        } else if char == "-" {
            pending = "-"
        } else if char == "[" {
            throw HTMLContextError(line: line, message: "`<![` (CDATA) is not supported in templates")
        } else {
            state = char == ">" ? .data : .bogusComment
        }
    }

    mutating func stepComment(_ char: Unicode.Scalar) {
        let abrupt = commentLength == 0 || (commentLength == 1 && pending == "-")
        if char == ">" && (abrupt || pending.hasSuffix("--") || pending.hasSuffix("--!")) {
            self = HTMLContext()
            return
        }
        pending.unicodeScalars.append(char)
        if pending.unicodeScalars.count > 3 { pending.unicodeScalars.removeFirst() }
        commentLength = min(commentLength + 1, 3)
    }

    /// Looks for the end tag of `<script>`, `<style>`, `<title>` and friends, which are not parsed as markup.
    mutating func stepRawText(_ char: Unicode.Scalar, line: Int) throws(HTMLContextError) {
        let endTag = "</" + tagName
        if pending == endTag {
            if Self.isSpace(char) || char == "/" || char == ">" {
                self = HTMLContext(state: .beforeAttributeName, tagName: tagName, isEndTag: true)
                if char == "/" { state = .selfClosing }
                if char == ">" { self = HTMLContext() }
                return
            }
            pending = ""
        } else if !pending.isEmpty {
            var candidate = pending
            candidate.unicodeScalars.append(Self.lowered(char))
            if endTag.hasPrefix(candidate) {
                pending = candidate
                return
            }
            if state == .rawText && tagName == "script" && "<!--".hasPrefix(candidate) {
                guard candidate != "<!--" else {
                    throw HTMLContextError(
                        line: line,
                        message: "`<!--` inside <script> changes where browsers end the script; remove it"
                    )
                }
                pending = candidate
                return
            }
            pending = ""
        }
        if char == "<" { pending = "<" }
    }
}
