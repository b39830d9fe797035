import Foundation
import Storage
import Synchronization

/// What the composition root does to `front.sqlite` for upgrades, clean stops and restores without the sealing
/// key.
extension Front {
    /// The schema version this binary's migrations bring `front.sqlite` to.
    public static var schemaVersion: Int { SessionStore.migrations.count }

    /// Merges the write-ahead log into `front.sqlite` (a clean stop calls this, after `flush()`).
    public func checkpoint() throws { try (sessions as? SessionStore)?.database.checkpoint() }

    /// Removes the sessions and sign-ins in progress from `<dataDirectory>/front.sqlite` (sealed with the sealing
    /// key), keeping seen marks: for a restore whose key is lost.
    public static func forgetSealedState(dataDirectory: String) throws {
        let path = dataDirectory + "/front.sqlite"
        guard FileManager.default.fileExists(atPath: path) else { return }
        let database = try Database(path: path)
        try database.migrate(SessionStore.migrations)
        try database.write { connection in
            try connection.execute("DELETE FROM sessions")
            try connection.execute("DELETE FROM pending_sign_ins")
        }
        try database.checkpoint()
    }

    /// Whether `<dataDirectory>/front.sqlite` holds a session or sign-in sealed with a key.
    public static func hasSealedState(dataDirectory: String) throws -> Bool {
        let path = dataDirectory + "/front.sqlite"
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
    /// Deletes every session of one account.
    func deleteAll(of did: String) throws {
        cache.withLock { $0 = $0.filter { $0.value.session.did != did } }
        try database.write { try $0.execute("DELETE FROM sessions WHERE did = ?", [did]) }
    }
}
