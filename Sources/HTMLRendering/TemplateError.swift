/// A template that failed to load, compile or render, with the file and line it points at.
public struct TemplateError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The template file relative to the template directory (`partials/avatar.html`), or the directory itself.
    public let file: String
    /// The 1-based line in `file`, or 0 when the error concerns the whole file.
    public let line: Int
    /// What is wrong and, where possible, how to fix it.
    public let message: String

    /// - Parameters:
    ///   - file: the template file, relative to the template directory.
    ///   - line: the 1-based line, or 0 for the whole file.
    ///   - message: a human-readable explanation.
    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: message`, or `file: message` when the error concerns the whole file.
    public var description: String {
        line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)"
    }
}
