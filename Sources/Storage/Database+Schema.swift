#if canImport(Glibc)
    import Glibc
#endif

/// Schema versions: a database's version is the number of migration steps applied to it, kept in SQLite's
/// `PRAGMA user_version`. A binary knows the steps it ships, so it can tell a database made by an older binary
/// (migrate forward) from one written by a newer binary (refuse: its steps cannot be undone).
extension Database {
    /// The number of migration steps this database has had applied (`PRAGMA user_version`).
    public var schemaVersion: Int {
        get throws { try read { try $0.queryOne("PRAGMA user_version")?.int("user_version") ?? 0 } }
    }

    /// The schema version of the database file at `path`, read without migrating or changing anything; nil when
    /// there is no file.
    public static func schemaVersion(ofFileAt path: String) throws(StorageError) -> Int? {
        guard access(path, F_OK) == 0 else { return nil }
        let connection = try Connection(path: path, readOnly: true)
        return try connection.queryOne("PRAGMA user_version")?.int("user_version") ?? 0
    }

    /// Brings the schema to `steps.count`: applies each step at or above the current version, all in one
    /// transaction, so a failing step leaves the database exactly as it was (version included). A database whose
    /// version is above `steps.count` was written by a newer binary and is refused, untouched.
    /// - Returns: the versions before and after.
    /// - Throws: ``SchemaError`` for a newer database; `StorageError` when a step fails (nothing is applied then).
    @discardableResult
    public func migrate(_ steps: [String]) throws -> Migration {
        try withWriter { connection in
            try connection.execute("BEGIN IMMEDIATE")
            do {
                let current = try connection.queryOne("PRAGMA user_version")?.int("user_version") ?? 0
                guard current <= steps.count else {
                    throw SchemaError(path: path, found: current, known: steps.count)
                }
                for (index, step) in steps.enumerated() where index >= current {
                    try connection.executeScript(step)
                }
                if current < steps.count { try connection.executeScript("PRAGMA user_version = \(steps.count)") }
                try connection.execute("COMMIT")
                return Migration(from: current, to: steps.count)
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }

    /// What ``migrate(_:)`` did.
    public struct Migration: Sendable, Equatable {
        /// The version the database had (0 for a new file).
        public var from: Int
        /// The version it has now.
        public var to: Int

        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }

        /// Whether any step ran.
        public var changed: Bool { from != to }
    }
}

/// A database written by a newer grain-stories than this binary: its schema has steps this binary does not know.
public struct SchemaError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What a person is told, word for word; the details follow it.
    public static let newerMessage = "this data was written by a newer grain-stories; install that version or restore a backup"

    public let path: String
    /// The database's schema version.
    public let found: Int
    /// The newest version this binary knows.
    public let known: Int

    public init(path: String, found: Int, known: Int) {
        self.path = path
        self.found = found
        self.known = known
    }

    public var description: String {
        "\(Self.newerMessage) (\(path) has schema version \(found); this binary knows versions up to \(known))"
    }
}
