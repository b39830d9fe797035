/// One step of a dotted path, with its array index pre-parsed.
struct PathSegment: Sendable {
    let key: String
    let index: Int?

    init(_ key: String) {
        self.key = key
        self.index = Int(key)
    }
}

/// A compiled `{{ path }}`: where the first name is looked up, then the steps below it.
struct TemplatePath: Sendable, CustomStringConvertible {
    enum Head: Sendable {
        /// `.` or `this`: the innermost scope.
        case current
        /// The first scope, innermost first, whose dictionary has this key.
        case name(String)
        /// `@index`, `@number`, `@first`, `@last`, `@count` of the innermost `each`.
        case loop(LoopField)
    }

    enum LoopField: String, Sendable {
        case index, number, first, last, count
    }

    let head: Head
    let tail: [PathSegment]
    let description: String

    /// Parses a path, or returns nil when it is not one.
    init?(_ text: String) {
        description = text
        if text == "." || text == "this" {
            head = .current
            tail = []
            return
        }
        if text.hasPrefix("@") {
            guard let field = LoopField(rawValue: String(text.dropFirst())) else { return nil }
            head = .loop(field)
            tail = []
            return
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.allSatisfy(Self.isValidSegment) else { return nil }
        if parts[0] == "this" {
            head = .current
            tail = parts.dropFirst().map(PathSegment.init)
        } else {
            head = .name(parts[0])
            tail = parts.dropFirst().map(PathSegment.init)
        }
    }

    private static func isValidSegment(_ segment: String) -> Bool {
        !segment.isEmpty
            && segment.unicodeScalars.allSatisfy { char in
                HTMLContext.isLetter(char) || HTMLContext.isDigit(char) || char == "_" || char == "-"
            }
    }
}
