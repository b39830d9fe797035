import Logging

/// Server-side diagnostics, through the one logger of this module (text or JSON lines on stderr); clients only ever
/// see generic messages.
enum ServerLog {
    static let log = Logger("HTTPServer")

    static func error(_ message: String) {
        log.error(message)
    }
}
