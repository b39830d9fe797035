import Foundation
import HTMLRendering

/// A throwaway template directory under the system temp directory.
struct TemplateDirectory {
    let path: String

    init(_ files: [String: String] = [:]) throws {
        path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("html-rendering-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (name, contents) in files {
            try write(name, contents)
        }
    }

    /// Writes `name` (relative, with extension) and any directories it needs.
    func write(_ name: String, _ contents: String) throws {
        let url = URL(fileURLWithPath: path).appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
    }

    func delete(_ name: String) throws {
        try FileManager.default.removeItem(atPath: path + "/" + name)
    }

    func renderer(reloadOnChange: Bool = false) throws -> TemplateRenderer {
        try TemplateRenderer(directory: path, reloadOnChange: reloadOnChange)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Renders a single template `page.html` with `source`.
func render(_ source: String, _ context: TemplateValue = [:]) throws -> String {
    let directory = try TemplateDirectory(["page.html": source])
    defer { directory.remove() }
    return try directory.renderer().render("page", context)
}

/// The error that loading these files produces, or nil when they compile.
func loadError(_ files: [String: String]) throws -> TemplateError? {
    let directory = try TemplateDirectory(files)
    defer { directory.remove() }
    do {
        _ = try directory.renderer()
        return nil
    } catch let error as TemplateError {
        return error
    }
}

/// The compile error of a single template `page.html`.
func compileError(_ source: String) throws -> TemplateError? {
    try loadError(["page.html": source])
}
