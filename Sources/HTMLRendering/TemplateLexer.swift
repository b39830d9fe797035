/// A piece of template source: literal text, or the inside of one `{{ … }}` tag.
struct TemplateToken {
    enum Kind {
        case text(String)
        case tag(String)
    }

    let kind: Kind
    let line: Int
}

/// Splits template source at `{{` and `}}`; `{{!-- … --}}` comments may contain `}}`.
enum TemplateLexer {
    static func tokens(in source: String, file: String) throws(TemplateError) -> [TemplateToken] {
        var tokens: [TemplateToken] = []
        var rest = Substring(source)
        var line = 1
        while !rest.isEmpty {
            guard let open = rest.firstRange(of: "{{") else {
                tokens.append(TemplateToken(kind: .text(String(rest)), line: line))
                break
            }
            if open.lowerBound > rest.startIndex {
                let text = rest[..<open.lowerBound]
                tokens.append(TemplateToken(kind: .text(String(text)), line: line))
                line += newlines(in: text)
            }
            let afterOpen = rest[open.upperBound...]
            let closer = afterOpen.hasPrefix("!--") ? "--}}" : "}}"
            guard let close = afterOpen.firstRange(of: closer) else {
                throw TemplateError(file: file, line: line, message: "unclosed `{{` (no matching `}}`)")
            }
            let inside = afterOpen[..<close.lowerBound]
            tokens.append(TemplateToken(kind: .tag(String(inside)), line: line))
            line += newlines(in: inside)
            rest = afterOpen[close.upperBound...]
        }
        return tokens
    }

    private static func newlines(in text: Substring) -> Int {
        text.utf8.reduce(0) { count, byte in byte == UInt8(ascii: "\n") ? count + 1 : count }
    }
}
