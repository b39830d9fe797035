import Synchronization

/// A SQLite database file in WAL mode: one writer connection behind a lock, and a pool of readers
/// so that reads never wait for a write to finish.
public final class Database: Sendable {
    public let path: String
    private let writer: Mutex<Connection>
    private let readers = Mutex<[Connection]>([])
    private let commits = Atomic<UInt64>(0)

    /// How many write transactions have committed since the database was opened: a cache of something read from
    /// it is current while this has not moved (read it before the read, keep the result only if it still holds).
    public var commitCount: UInt64 { commits.load(ordering: .acquiring) }

    /// Opens (creating if needed) the database at `path` and switches it to WAL.
    public init(path: String) throws(StorageError) {
        self.path = path
        let connection = try Connection(path: path, readOnly: false)
        try connection.executeScript(
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;")
        writer = Mutex(connection)
    }

    /// Runs `body` inside one write transaction (BEGIN IMMEDIATE), committing on return and rolling
    /// back on a thrown error, so a failure never leaves half a change behind.
    public func write<T>(_ body: (Connection) throws -> T) throws -> T {
        try writer.withLock { connection in
            try connection.execute("BEGIN IMMEDIATE")
            do {
                let result = try body(connection)
                try connection.execute("COMMIT")
                commits.add(1, ordering: .releasing)
                return result
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// Runs `body` on a reader connection; it sees the last committed state.
    public func read<T>(_ body: (Connection) throws -> T) throws -> T {
        let connection = try checkoutReader()
        defer { readers.withLock { $0.append(connection) } }
        return try body(connection)
    }

    /// Runs `body` on the writer connection outside any transaction it opens itself (migrations and checkpoints,
    /// which manage their own).
    func withWriter<T>(_ body: (Connection) throws -> T) throws -> T {
        try writer.withLock { try body($0) }
    }

    private func checkoutReader() throws(StorageError) -> Connection {
        if let pooled = readers.withLock({ $0.popLast() }) { return pooled }
        let connection = try Connection(path: path, readOnly: true)
        return connection
    }
}
