/// The compiled form of a template: literal text and the decisions made at compile time.
///
/// Non-text payloads are final classes so that walking the tree costs one retain per node.
enum TemplateNode: Sendable {
    case text(String)
    case value(ValueNode)
    case section(TemplateSection)
    case partial(PartialReference)
}

final class ValueNode: Sendable {
    let path: TemplatePath
    let mode: OutputMode
    let line: Int

    init(path: TemplatePath, mode: OutputMode, line: Int) {
        self.path = path
        self.mode = mode
        self.line = line
    }
}

enum SectionKind: String, Sendable {
    case `if`, unless, each, with
}

final class TemplateSection: Sendable {
    let kind: SectionKind
    let path: TemplatePath
    let body: [TemplateNode]
    let elseBody: [TemplateNode]
    let line: Int

    init(kind: SectionKind, path: TemplatePath, body: [TemplateNode], elseBody: [TemplateNode], line: Int) {
        self.kind = kind
        self.path = path
        self.body = body
        self.elseBody = elseBody
        self.line = line
    }
}

/// An `{{> name }}`; all of them are checked once every template is loaded.
final class PartialReference: Sendable {
    let name: String
    let line: Int

    init(name: String, line: Int) {
        self.name = name
        self.line = line
    }
}

struct CompiledTemplate: Sendable {
    let name: String
    /// The file relative to the template directory, as shown in errors.
    let file: String
    let nodes: [TemplateNode]
    let partials: [PartialReference]
    /// Bytes of literal text, a starting point for the output buffer's capacity.
    let literalSize: Int
}
