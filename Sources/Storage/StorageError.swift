/// A failure reported by SQLite, with the statement that caused it.
public struct StorageError: Error, Sendable, CustomStringConvertible {
    /// SQLite's primary result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT`, …).
    public let code: Int32
    public let message: String
    public let sql: String?

    public var description: String {
        if let sql { return "SQLite error \(code): \(message) (in: \(sql.prefix(120)))" }
        return "SQLite error \(code): \(message)"
    }

    /// True for a UNIQUE or PRIMARY KEY violation, which callers often turn into a 409.
    public var isConstraintViolation: Bool { code & 0xFF == 19 }
    /// True when the disk (or a file size limit) had no room for the change (`SQLITE_FULL`).
    public var isFull: Bool { code & 0xFF == 13 }
    /// True when the database stayed locked past the busy timeout.
    public var isBusy: Bool { code & 0xFF == 5 || code & 0xFF == 6 }
}
