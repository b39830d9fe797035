import Foundation

/// Every compiled template of one directory, loaded together so that partial references and include cycles
/// are checked across the whole set. Immutable; a reload builds a new library.
final class TemplateLibrary: Sendable {
    let templates: [String: CompiledTemplate]
    /// Stamps of every template file and directory, for change detection; a directory's stamp changes when a
    /// file is added or removed in it.
    private let stamps: [String: FileStamp?]

    private init(templates: [String: CompiledTemplate], stamps: [String: FileStamp?]) {
        self.templates = templates
        self.stamps = stamps
    }

    /// Loads and compiles every `*.html` under `directory`, recursively.
    static func load(directory: String) throws(TemplateError) -> TemplateLibrary {
        let root = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        var stamps: [String: FileStamp?] = [root: FileStamp.read(root)]
        let entries: [String]
        do {
            entries = try FileManager.default.subpathsOfDirectory(atPath: root).sorted()
        } catch {
            throw TemplateError(file: directory, line: 0, message: "cannot read the template directory: \(error)")
        }
        var templates: [String: CompiledTemplate] = [:]
        for entry in entries {
            let path = root + "/" + entry
            let stamp = FileStamp.read(path)
            stamps[path] = stamp
            guard entry.hasSuffix(".html") else { continue }
            let name = String(entry.dropLast(".html".count))
            guard let data = FileManager.default.contents(atPath: path) else {
                throw TemplateError(file: entry, line: 0, message: "cannot read the file")
            }
            guard let source = String(validating: data, as: UTF8.self) else {
                throw TemplateError(file: entry, line: 0, message: "the file is not valid UTF-8")
            }
            templates[name] = try TemplateCompiler.compile(source: source, name: name)
        }
        try checkPartials(templates)
        return TemplateLibrary(templates: templates, stamps: stamps)
    }

    /// True when a file or directory was changed, added or removed since loading.
    func hasChanges() -> Bool {
        stamps.contains { path, stamp in FileStamp.read(path) != stamp }
    }

    /// Every `{{> name }}` must name a loaded template, and following them must never come back to a template
    /// already being included.
    private static func checkPartials(_ templates: [String: CompiledTemplate]) throws(TemplateError) {
        for template in templates.values.sorted(by: { $0.name < $1.name }) {
            for reference in template.partials where templates[reference.name] == nil {
                throw TemplateError(file: template.file, line: reference.line, message: "unknown partial `\(reference.name)`")
            }
        }
        var finished: Set<String> = []
        for name in templates.keys.sorted() {
            var chain: [String] = []
            try visit(name, templates: templates, chain: &chain, finished: &finished)
        }
    }

    private static func visit(
        _ name: String,
        templates: [String: CompiledTemplate],
        chain: inout [String],
        finished: inout Set<String>
    ) throws(TemplateError) {
        guard !finished.contains(name), let template = templates[name] else { return }
        chain.append(name)
        for reference in template.partials {
            if chain.contains(reference.name) {
                let cycle = chain.drop(while: { $0 != reference.name }) + [reference.name]
                throw TemplateError(
                    file: template.file,
                    line: reference.line,
                    message: "include cycle: \(cycle.joined(separator: " -> "))"
                )
            }
            try visit(reference.name, templates: templates, chain: &chain, finished: &finished)
        }
        chain.removeLast()
        finished.insert(name)
    }
}
