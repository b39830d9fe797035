/// A failure reported by libpq or the PostgreSQL server, with what a person can act on.
public struct PostgresError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// The server could not be reached or refused the connection (address, credentials, database name).
        case connect
        /// A statement failed on the server; `sqlState` says why.
        case statement
        /// The connection broke while a statement ran; the next call opens a new one.
        case connectionLost
        /// A lock (the refresh lock) was not granted in time.
        case lockTimeout
        /// A value came back in a shape this code does not read.
        case unexpectedResult
    }

    public let code: Code
    /// The server's five-character SQLSTATE (`23505` unique violation, `40P01` deadlock, …), when it sent one.
    public let sqlState: String?
    public let message: String
    /// The statement's first characters, never its parameters (they may be sealed tokens).
    public let sql: String?

    public init(_ code: Code, _ message: String, sqlState: String? = nil, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sqlState = sqlState
        self.sql = sql
    }

    public var description: String {
        var text = "PostgreSQL: \(message)"
        if let sqlState { text += " (SQLSTATE \(sqlState))" }
        if let sql { text += " (in: \(sql.prefix(120)))" }
        return text
    }

    /// True for a UNIQUE or PRIMARY KEY violation.
    public var isUniqueViolation: Bool { sqlState == "23505" }
}
