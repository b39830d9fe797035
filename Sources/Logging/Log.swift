import Foundation
import Synchronization

/// The one way every module writes diagnostics: a line per event on standard error, as text or as JSON, with
/// the subsystem that wrote it. Never tokens, passwords, keys, coordinates or photo content: reasons and ids only.
public enum Log {
    /// How severe an event is.
    public enum Level: String, Sendable, Comparable {
        case info, warning, error

        public static func < (a: Level, b: Level) -> Bool { a.rank < b.rank }
        var rank: Int {
            switch self {
            case .info: 0
            case .warning: 1
            case .error: 2
            }
        }
    }

    /// `text` (the default) or `json`, one object per line, for log collectors.
    public enum Format: String, Sendable { case text, json }

    /// Where lines go and how they look, set once at start.
    public struct Settings: Sendable {
        public var format: Format = .text
        public var minimumLevel: Level = .info
        /// Receives each finished line; standard error unless a test captures them.
        public var sink: @Sendable (String) -> Void = { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
        public init() {}
    }

    private static let settings = Mutex(Settings())

    /// Replaces the settings (the command line does this once; tests capture lines).
    public static func configure(_ new: Settings) { settings.withLock { $0 = new } }

    /// One event; `fields` carry ids. A line written while a request is handled carries its id as `request`.
    public static func write(_ level: Level, _ message: String, subsystem: String, fields: [String: String] = [:]) {
        let current = settings.withLock { $0 }
        guard level >= current.minimumLevel else { return }
        var fields = fields
        if let id = LogContext.requestID, fields["request"] == nil { fields["request"] = id }
        current.sink(line(level, message, subsystem: subsystem, fields: fields, format: current.format, now: Date()))
    }

    /// One line as `format` writes it now (what `write` hands the sink), for output that must read like the log.
    public static func line(_ level: Level, _ message: String, subsystem: String, fields: [String: String], format: Format) -> String {
        line(level, message, subsystem: subsystem, fields: fields, format: format, now: Date())
    }

    static func line(
        _ level: Level, _ message: String, subsystem: String, fields: [String: String], format: Format, now: Date
    )
        -> String
    {
        switch format {
        case .text:
            let extra = fields.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
            return "\(subsystem): \(level == .info ? "" : level.rawValue + ": ")\(message)\(extra)"
        case .json:
            var object = fields
            object["time"] = ISO8601DateFormatter().string(from: now)
            object["level"] = level.rawValue
            object["subsystem"] = subsystem
            object["message"] = message
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }
    }
}

/// What one module logs through: its subsystem's name on every line. Each module keeps one, `log`.
public struct Logger: Sendable {
    public let subsystem: String

    public init(_ subsystem: String) { self.subsystem = subsystem }

    public func info(_ message: String, fields: [String: String] = [:]) { Log.write(.info, message, subsystem: subsystem, fields: fields) }

    public func warning(_ message: String, fields: [String: String] = [:]) {
        Log.write(.warning, message, subsystem: subsystem, fields: fields)
    }

    public func error(_ message: String, fields: [String: String] = [:]) { Log.write(.error, message, subsystem: subsystem, fields: fields) }
}

/// What every log line written inside one request shares: the server sets the request's id around its handler
/// (a task-local value, so tasks the handler starts inherit it) and ``Log`` adds it to each line as `request`.
public enum LogContext {
    /// The id of the request being handled, as its `X-Request-Id` header and error page show it.
    @TaskLocal public static var requestID: String?
}
