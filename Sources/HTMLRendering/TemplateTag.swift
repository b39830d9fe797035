/// The meaning of one `{{ … }}` tag.
enum TemplateTag {
    case comment
    case value(TemplatePath)
    case json(TemplatePath)
    case open(SectionKind, TemplatePath)
    case otherwise
    case close(SectionKind)
    case partial(String)

    /// Parses the inside of a tag; the error is a message, the compiler adds file and line.
    static func parse(_ raw: String) throws(TagSyntaxError) -> TemplateTag {
        let content = raw.trimmingSpaces()
        guard let first = content.first else { throw TagSyntaxError("empty tag `{{}}`") }
        let rest = String(content.dropFirst()).trimmingSpaces()
        switch first {
        case "!":
            return .comment
        case "{", "&":
            throw TagSyntaxError("unescaped output `{{\(content)}}` is not supported; pass trusted markup as SafeHTML")
        case "#":
            let words = rest.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
            guard words.count == 2, let kind = SectionKind(rawValue: words[0]) else {
                throw TagSyntaxError("expected `{{#if path}}`, `{{#unless path}}`, `{{#each path}}` or `{{#with path}}`, found `{{\(content)}}`")
            }
            return .open(kind, try path(words[1]))
        case "/":
            guard let kind = SectionKind(rawValue: rest) else {
                throw TagSyntaxError("unknown closing tag `{{\(content)}}`")
            }
            return .close(kind)
        case ">":
            guard isPartialName(rest) else {
                throw TagSyntaxError("invalid partial name `\(rest)`: use a path relative to the template directory, without .html")
            }
            return .partial(rest)
        default:
            break
        }
        if content == "else" { return .otherwise }
        let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
        if words.count == 2 && words[0] == "json" { return .json(try path(words[1])) }
        guard words.count == 1 else { throw TagSyntaxError("unexpected `{{\(content)}}`") }
        return .value(try path(words[0]))
    }

    private static func path(_ text: String) throws(TagSyntaxError) -> TemplatePath {
        guard let path = TemplatePath(text) else {
            throw TagSyntaxError("invalid path `\(text)`: use dotted names (`a.b`), `.`, `this` or `@index`-style loop fields")
        }
        return path
    }

    private static func isPartialName(_ name: String) -> Bool {
        let segments = name.split(separator: "/", omittingEmptySubsequences: false)
        return segments.allSatisfy { segment in
            !segment.isEmpty && segment != "." && segment != ".."
                && segment.unicodeScalars.allSatisfy { char in
                    HTMLContext.isLetter(char) || HTMLContext.isDigit(char) || "_-.".unicodeScalars.contains(char)
                }
        }
    }
}

struct TagSyntaxError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

extension String {
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[start...end])
    }
}
