import Foundation

/// Server-side diagnostics go to stderr; clients only ever see generic messages.
enum ServerLog {
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("[HTTPServer] \(message)\n".utf8))
    }
}
