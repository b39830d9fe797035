import Synchronization

/// Renders the HTML templates of one directory, escaping every value for the context it appears in.
///
/// Templates are compiled once (at `init`, or after a change when `reloadOnChange` is on) and are then safe to
/// render concurrently from any thread.
public final class TemplateRenderer: Sendable {
    private let directory: String
    private let reloadOnChange: Bool
    private let library: Mutex<TemplateLibrary>

    /// Loads and compiles every `*.html` under `directory`, recursively; a template's name is its path relative
    /// to the directory without `.html` (`home`, `partials/avatar`).
    /// - Parameters:
    ///   - directory: the template directory.
    ///   - reloadOnChange: recompile on the next render after a file changes, is added or is removed (the
    ///     `--dev` flag); costs one `stat` per template file per render.
    /// - Throws: ``TemplateError`` for the first template that fails to compile, an unknown partial or an
    ///   include cycle.
    public init(directory: String, reloadOnChange: Bool = false) throws {
        self.directory = directory
        self.reloadOnChange = reloadOnChange
        self.library = Mutex(try TemplateLibrary.load(directory: directory))
    }

    /// The names of all loaded templates, sorted.
    public var templateNames: [String] {
        library.withLock { $0.templates.keys.sorted() }
    }

    /// Renders a template, then optionally a layout around it.
    /// - Parameters:
    ///   - name: the template's name (`home`).
    ///   - context: the values the template reads; usually a dictionary.
    ///   - layout: a template rendered after the page with the page's output as `{{ content }}` (trusted
    ///     markup) on top of the same context.
    /// - Returns: the HTML.
    /// - Throws: ``TemplateError`` for an unknown template, a value that cannot be printed (an array in
    ///   `{{ }}`), or, with `reloadOnChange`, a template that no longer compiles.
    public func render(_ name: String, _ context: TemplateValue, layout: String? = nil) throws -> String {
        let library = try currentLibrary()
        let page = try template(name, in: library)
        var session = RenderSession(
            library: library,
            scopes: [RenderSession.Scope(value: context)],
            capacity: 2 * page.literalSize + 4096
        )
        try session.render(page.nodes, file: page.file)
        let html = String(decoding: session.output, as: UTF8.self)
        guard let layout else { return html }
        let frame = try template(layout, in: library)
        let content: TemplateValue = ["content": .safe(SafeHTML(unsafeRaw: html))]
        var outer = RenderSession(
            library: library,
            scopes: [RenderSession.Scope(value: context), RenderSession.Scope(value: content)],
            capacity: session.output.count + 2 * frame.literalSize + 1024
        )
        try outer.render(frame.nodes, file: frame.file)
        return String(decoding: outer.output, as: UTF8.self)
    }

    private func template(_ name: String, in library: TemplateLibrary) throws(TemplateError) -> CompiledTemplate {
        guard let template = library.templates[name] else {
            throw TemplateError(file: name + ".html", line: 0, message: "no template named `\(name)` in \(directory)")
        }
        return template
    }

    /// The library to render with; in reload mode, a fresh one when anything on disk changed. A failed reload
    /// keeps the old library and throws, and keeps throwing on each render until the files are fixed.
    private func currentLibrary() throws(TemplateError) -> TemplateLibrary {
        let current = library.withLock { $0 }
        guard reloadOnChange, current.hasChanges() else { return current }
        let fresh = try TemplateLibrary.load(directory: directory)
        library.withLock { $0 = fresh }
        return fresh
    }
}
