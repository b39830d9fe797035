public import Storage
import Synchronization

/// A PostgreSQL database shared by several processes (the fronts behind one load balancer), reached through a
/// small pool of libpq connections: a caller takes one, uses it alone, and gives it back. A connection that broke
/// is dropped rather than pooled, so the next call reconnects (the server restarted, a proxy cut idle connections).
public final class PostgresDatabase: Sendable {
    private let url: String
    private let idle = Mutex<[PostgresConnection]>([])
    /// Idle connections kept open; more are opened when more callers run at once, and closed when handed back.
    static let idleLimit = 8

    /// Opens one connection at once, so that a wrong URL or a server that is down fails at start-up, not on the
    /// first request.
    public init(url: String) throws(PostgresError) {
        self.url = url
        let first = try PostgresConnection(url: url)
        idle.withLock { $0.append(first) }
    }

    /// Runs `body` on a connection of the pool.
    public func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let connection = try checkout()
        defer { checkin(connection) }
        return try body(connection)
    }

    /// Runs `body` on a connection held across suspension points (an advisory lock held while a refresh is awaited).
    public func withHeldConnection<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let connection = try checkout()
        defer { checkin(connection) }
        return try await body(connection)
    }

    /// Runs `body` inside one transaction, committing on return and rolling back on a thrown error.
    public func transaction<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try withConnection { connection in
            try connection.execute("BEGIN")
            do {
                let result = try body(connection)
                try connection.execute("COMMIT")
                return result
            } catch {
                if (try? connection.execute("ROLLBACK")) == nil { connection.isPoisoned = true }
                throw error
            }
        }
    }

    /// A query on a pooled connection.
    public func query(_ sql: String, _ arguments: [any SQLBindable] = []) throws -> [Row] {
        try withConnection { try $0.query(sql, arguments) }
    }

    /// A statement on a pooled connection; returns the rows it changed.
    @discardableResult
    public func execute(_ sql: String, _ arguments: [any SQLBindable] = []) throws -> Int {
        try withConnection { try $0.execute(sql, arguments) }
    }

    /// Applies `schema` once however many processes start at the same moment: the statements run in one transaction
    /// under a transaction-level advisory lock, so a second process waits for the first and then finds its tables.
    /// The statements must be idempotent (`CREATE TABLE IF NOT EXISTS`, …).
    public func prepareSchema(_ schema: [String], lockKey: Int64) throws {
        try transaction { connection in
            try connection.execute("SELECT pg_advisory_xact_lock($1)", [lockKey])
            for statement in schema { try connection.execute(statement) }
        }
    }

    /// Runs `body` while this process holds the session-level advisory lock `key`, which other processes cannot
    /// take until it is released: a lock across processes for work that awaits (a token refresh). The lock is tried,
    /// never waited on inside the server, so no thread blocks: a held lock is tried again every `poll` until
    /// `timeout`. It is released when `body` ends, and by the server if this process dies holding it.
    public func withAdvisoryLock<T>(
        _ key: Int64, timeout: Duration = .seconds(15), poll: Duration = .milliseconds(10), _ body: () async throws -> T
    ) async throws -> T {
        try await withHeldConnection { connection in
            let deadline = ContinuousClock.now + timeout
            while try connection.queryOne("SELECT pg_try_advisory_lock($1) AS taken", [key])?.int("taken") != 1 {
                guard ContinuousClock.now < deadline else {
                    throw PostgresError(.lockTimeout, "another process held advisory lock \(key) for over \(timeout)")
                }
                try await Task.sleep(for: poll)
            }
            do {
                let result = try await body()
                unlock(key, on: connection)
                return result
            } catch {
                unlock(key, on: connection)
                throw error
            }
        }
    }

    /// Releases `key`; a connection that cannot is closed instead of pooled, which releases it too.
    private func unlock(_ key: Int64, on connection: PostgresConnection) {
        if (try? connection.execute("SELECT pg_advisory_unlock($1)", [key])) == nil { connection.isPoisoned = true }
    }

    private func checkout() throws(PostgresError) -> PostgresConnection {
        if let pooled = idle.withLock({ $0.popLast() }) {
            if pooled.isHealthy { return pooled }
        }
        return try PostgresConnection(url: url)
    }

    private func checkin(_ connection: PostgresConnection) {
        guard connection.isHealthy else { return }
        idle.withLock { if $0.count < Self.idleLimit { $0.append(connection) } }
    }
}
