import Caching
import Foundation
import Storage

/// What the composition root does to `front.sqlite` for upgrades, clean stops and restores without the sealing
/// key, through the front (`Front+Administration` in `App` names the file in the data directory).
extension SessionStore {
    /// The schema version this binary's migrations bring `front.sqlite` to: start-up refuses a newer file and backs
    /// up an older one before migrating it.
    public static var schemaVersion: Int { migrations.count }

    /// Merges the write-ahead log into `front.sqlite` (a clean stop calls this, after the seen marks are flushed).
    public func checkpoint() throws { try database.checkpoint() }

    /// Removes the sessions and sign-ins in progress from the `front.sqlite` at `path` (sealed with the sealing
    /// key), keeping seen marks: for a restore whose key is lost.
    public static func forgetSealedState(path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        let database = try Database(path: path)
        try database.migrate(migrations)
        try database.write { connection in
            try connection.execute("DELETE FROM sessions")
            try connection.execute("DELETE FROM pending_sign_ins")
        }
        try database.checkpoint()
    }

    /// Whether the `front.sqlite` at `path` holds a session or sign-in sealed with a key, so a restore knows
    /// whether the key it is given matters.
    public static func hasSealedState(path: String) throws -> Bool {
        guard FileManager.default.fileExists(atPath: path) else { return false }
        let connection = try Connection.readOnly(path)
        let tables = Set(try connection.query("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0.string("name") })
        for table in ["sessions", "pending_sign_ins"] where tables.contains(table) {
            if try connection.queryOne("SELECT 1 AS x FROM \(table) LIMIT 1") != nil { return true }
        }
        return false
    }
}

extension SessionStore {
    /// Counts the rows not yet pruned, for `/metrics`.
    public func count() throws -> Int {
        try database.read { try $0.queryOne("SELECT COUNT(*) AS n FROM sessions")?.int("n") ?? 0 }
    }

    /// Deletes every session of one account, the cached copies first, so a disabled member's open pages stop at once.
    public func deleteAll(of did: String) throws {
        cache.removeAll { _, session in session.did == did }
        try database.write { try $0.execute("DELETE FROM sessions WHERE did = ?", [did]) }
    }
}
