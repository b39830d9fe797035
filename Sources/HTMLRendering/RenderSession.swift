/// One render: the output buffer and the scope stack, walked over compiled nodes.
struct RenderSession {
    /// A value pushed by `with` or `each`; loop fields are only meaningful when `count >= 0`.
    struct Scope {
        let value: TemplateValue
        var index = 0
        var count = -1
    }

    let library: TemplateLibrary
    /// UTF-8 output; see ``HTMLEscaping`` for why bytes rather than a `String`.
    var output: [UInt8] = []
    var scopes: [Scope]

    init(library: TemplateLibrary, scopes: [Scope], capacity: Int) {
        self.library = library
        self.scopes = scopes
        self.scopes.reserveCapacity(8)
        output.reserveCapacity(capacity)
    }

    mutating func render(_ nodes: [TemplateNode], file: String) throws(TemplateError) {
        for node in nodes {
            switch node {
            case .text(let text):
                output.append(contentsOf: text.utf8)
            case .value(let node):
                try write(resolve(node.path), node: node, file: file)
            case .section(let section):
                try render(section, file: file)
            case .partial(let reference):
                guard let partial = library.templates[reference.name] else {
                    throw TemplateError(file: file, line: reference.line, message: "unknown partial `\(reference.name)`")
                }
                try render(partial.nodes, file: partial.file)
            }
        }
    }

    private mutating func render(_ section: TemplateSection, file: String) throws(TemplateError) {
        let value = resolve(section.path)
        switch section.kind {
        case .if:
            try render(value.isTruthy ? section.body : section.elseBody, file: file)
        case .unless:
            try render(value.isTruthy ? section.elseBody : section.body, file: file)
        case .with:
            guard value.isTruthy else { return try render(section.elseBody, file: file) }
            scopes.append(Scope(value: value))
            try render(section.body, file: file)
            scopes.removeLast()
        case .each:
            let items: [TemplateValue]
            switch value {
            case .array(let array): items = array
            case _ where !value.isTruthy: items = []
            default:
                throw TemplateError(file: file, line: section.line, message: "`{{#each \(section.path)}}` needs an array")
            }
            guard !items.isEmpty else { return try render(section.elseBody, file: file) }
            for (index, item) in items.enumerated() {
                scopes.append(Scope(value: item, index: index, count: items.count))
                try render(section.body, file: file)
                scopes.removeLast()
            }
        }
    }

    private func resolve(_ path: TemplatePath) -> TemplateValue {
        var value: TemplateValue
        switch path.head {
        case .current:
            value = scopes.last?.value ?? .null
        case .name(let key):
            value = .null
            var index = scopes.count - 1
            while index >= 0 {
                if case .dictionary(let entries) = scopes[index].value, let found = entries[key] {
                    value = found
                    break
                }
                index -= 1
            }
        case .loop(let field):
            guard let loop = scopes.last(where: { $0.count >= 0 }) else { return .null }
            switch field {
            case .index: return .int(loop.index)
            case .number: return .int(loop.index + 1)
            case .first: return .bool(loop.index == 0)
            case .last: return .bool(loop.index == loop.count - 1)
            case .count: return .int(loop.count)
            }
        }
        for segment in path.tail {
            value = value.member(segment)
        }
        return value
    }

    private mutating func write(_ value: TemplateValue, node: ValueNode, file: String) throws(TemplateError) {
        let mode = node.mode
        if mode == .json {
            HTMLEscaping.appendJSON(value, to: &output)
            return
        }
        switch value {
        case .null:
            return
        case .string(let text):
            writeEscaped(text, mode: mode)
        case .safe(let markup):
            if mode == .text { output.append(contentsOf: markup.html.utf8) } else { writeEscaped(markup.html, mode: mode) }
        case .int(let number):
            writeEscaped(String(number), mode: mode)
        case .double(let number):
            writeEscaped(TemplateValue.format(number), mode: mode)
        case .bool(let flag):
            writeEscaped(flag ? "true" : "false", mode: mode)
        case .array, .dictionary:
            let kind = if case .array = value { "an array" } else { "a dictionary" }
            throw TemplateError(file: file, line: node.line, message: "`{{\(node.path)}}` is \(kind), which cannot be printed")
        }
    }

    private mutating func writeEscaped(_ text: String, mode: OutputMode) {
        switch mode {
        case .text, .rcData: HTMLEscaping.appendText(text, to: &output)
        case .attribute: HTMLEscaping.appendAttribute(text, to: &output)
        case .url: HTMLEscaping.appendURL(text, to: &output)
        case .json: HTMLEscaping.appendJSON(.string(text), to: &output)
        }
    }
}
