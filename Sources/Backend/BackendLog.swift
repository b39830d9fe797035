import Foundation

/// One-line diagnostics of the embedded backend on stderr: reasons and ids only, never tokens or content.
enum BackendLog {
    static func error(_ message: String) {
        FileHandle.standardError.write(Data("backend: error: \(message)\n".utf8))
    }

    static func notice(_ message: String) {
        FileHandle.standardError.write(Data("backend: \(message)\n".utf8))
    }
}
