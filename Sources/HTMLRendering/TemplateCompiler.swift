/// Compiles one template's source into nodes, deciding each interpolation's escaping from the HTML around it.
struct TemplateCompiler {
    private struct OpenSection {
        let kind: SectionKind
        let path: TemplatePath
        let line: Int
        /// The context before the section, which the `else` branch (or a skipped section) continues from.
        let start: HTMLContext
        let bodyStart: HTMLContext
        let outer: [TemplateNode]
        var body: [TemplateNode] = []
        var bodyEnd: HTMLContext?
    }

    private let file: String
    private var context = HTMLContext()
    private var nodes: [TemplateNode] = []
    private var sections: [OpenSection] = []
    private var partials: [PartialReference] = []
    private var literalSize = 0

    private init(file: String) {
        self.file = file
    }

    /// - Parameters:
    ///   - source: the template text.
    ///   - name: the template's name relative to the directory, without `.html`.
    static func compile(source: String, name: String) throws(TemplateError) -> CompiledTemplate {
        var compiler = TemplateCompiler(file: name + ".html")
        var lastLine = 1
        for token in try TemplateLexer.tokens(in: source, file: compiler.file) {
            try compiler.handle(token)
            lastLine = token.line
        }
        if let open = compiler.sections.last {
            throw compiler.error(open.line, "unclosed `{{#\(open.kind.rawValue) \(open.path)}}`")
        }
        guard compiler.context.state == .data else {
            throw compiler.error(lastLine, "the template ends inside \(compiler.context.summary)")
        }
        return CompiledTemplate(
            name: name,
            file: compiler.file,
            nodes: compiler.nodes,
            partials: compiler.partials,
            literalSize: compiler.literalSize
        )
    }

    private func error(_ line: Int, _ message: String) -> TemplateError {
        TemplateError(file: file, line: line, message: message)
    }

    private mutating func handle(_ token: TemplateToken) throws(TemplateError) {
        do {
            switch token.kind {
            case .text(let text):
                try context.consume(text, line: token.line)
                appendText(text)
            case .tag(let raw):
                try handle(TemplateTag.parse(raw), line: token.line)
            }
        } catch let error as HTMLContextError {
            throw self.error(error.line, error.message)
        } catch let error as TagSyntaxError {
            throw self.error(token.line, error.message)
        } catch let error as TemplateError {
            throw error
        } catch {
            throw self.error(token.line, "\(error)")
        }
    }

    private mutating func handle(_ tag: TemplateTag, line: Int) throws {
        switch tag {
        case .comment:
            break
        case .value(let path), .json(let path):
            let isJSON = if case .json = tag { true } else { false }
            let mode = try context.outputMode(json: isJSON, line: line)
            context.noteInterpolation()
            nodes.append(.value(ValueNode(path: path, mode: mode, line: line)))
        case .partial(let name):
            guard context.state == .data else {
                throw error(line, "`{{> \(name)}}` can only be included in text between tags, not in \(context.summary)")
            }
            let reference = PartialReference(name: name, line: line)
            partials.append(reference)
            nodes.append(.partial(reference))
        case .open(let kind, let path):
            try context.enterSectionBoundary(line: line)
            let bodyStart = kind == .each ? context.enteringLoopBody() : context
            sections.append(OpenSection(kind: kind, path: path, line: line, start: context, bodyStart: bodyStart, outer: nodes))
            nodes = []
            context = bodyStart
        case .otherwise:
            guard var section = sections.popLast(), section.bodyEnd == nil else {
                throw error(line, "`{{else}}` outside a section, or a second `{{else}}` in one section")
            }
            try context.enterSectionBoundary(line: line)
            section.bodyEnd = context
            section.body = nodes
            nodes = []
            context = section.start
            sections.append(section)
        case .close(let kind):
            try close(kind, line: line)
        }
    }

    private mutating func close(_ kind: SectionKind, line: Int) throws {
        guard let section = sections.popLast() else {
            throw error(line, "`{{/\(kind.rawValue)}}` without a matching `{{#\(kind.rawValue)}}`")
        }
        guard section.kind == kind else {
            throw error(line, "`{{/\(kind.rawValue)}}` closes `{{#\(section.kind.rawValue) \(section.path)}}` from line \(section.line)")
        }
        try context.enterSectionBoundary(line: line)
        let hasElse = section.bodyEnd != nil
        let bodyEnd = section.bodyEnd ?? context
        let otherEnd = hasElse ? context : section.start
        let opening = "`{{#\(kind.rawValue) \(section.path)}}` (line \(section.line))"
        if kind == .each && section.bodyStart.joined(with: bodyEnd) != section.bodyStart {
            throw error(
                line,
                "the body of \(opening) must end in the HTML context it starts in; "
                    + "it starts in \(section.bodyStart.summary) and ends in \(bodyEnd.summary)"
            )
        }
        guard let after = bodyEnd.joined(with: otherEnd) else {
            throw error(
                line,
                "the branches of \(opening) end in different HTML contexts (\(bodyEnd.summary) and \(otherEnd.summary)); "
                    + "close tags and attributes inside each branch"
            )
        }
        let compiled = TemplateSection(
            kind: kind,
            path: section.path,
            body: hasElse ? section.body : nodes,
            elseBody: hasElse ? nodes : [],
            line: section.line
        )
        nodes = section.outer
        nodes.append(.section(compiled))
        context = after
    }

    /// Appends literal text, merging with a preceding text node (comments leave neighbours adjacent).
    private mutating func appendText(_ text: String) {
        literalSize += text.utf8.count
        if case .text(let previous)? = nodes.last {
            nodes[nodes.count - 1] = .text(previous + text)
        } else {
            nodes.append(.text(text))
        }
    }
}
