public import ATProto
import Foundation
import Storage

/// What the composition root does to `auth.sqlite` for the owner's administration, upgrades, clean stops and
/// restores without the sealing key.
extension AuthServer {
    /// The schema version this binary's migrations bring `auth.sqlite` to.
    public static var schemaVersion: Int { AuthSchema.migrations.count }

    /// Merges the write-ahead log into `auth.sqlite` (a clean stop calls this).
    public func checkpoint() throws { try database.checkpoint() }

    /// A trivial read, for the health check.
    public func checkReadable() throws {
        _ = try database.read { try $0.queryOne("SELECT COUNT(*) AS n FROM sqlite_master") }
    }

    /// Ends every sign-in of an account: its grants are revoked, so no refresh token or access token of it works
    /// any more (a disabled member is signed out everywhere at once).
    public func revokeGrants(for did: DID) throws {
        try grants.revokeGrants(for: did)
    }

    /// Forgets an account that was removed: its password, grants and their tokens.
    public func forgetAccount(_ did: DID) throws {
        try passwords.forget(did)
        _ = try pruneExpired()
    }

    /// Deletes what can no longer be used or replayed: expired pending requests, codes past their retention,
    /// expired access and refresh tokens and those of revoked grants, spent `jti`s, and grants with nothing
    /// left. The composition root calls this every minute; no request pays for it, and every delete runs on an
    /// index (`AuthSchema`), so a flood of rows costs one bounded pass here instead of a scan per request.
    /// - Returns: the number of rows deleted.
    @discardableResult
    public func pruneExpired() throws -> Int {
        let now = clock().unixSeconds
        return try database.write { connection in
            var deleted = 0
            for (sql, arguments) in AuthSchema.pruneStatements(now: now) {
                try connection.execute(sql, arguments)
                deleted += connection.changes
            }
            return deleted
        }
    }

    /// Removes everything in `<dataDirectory>/auth.sqlite` that was sealed with the sealing key (the token-signing
    /// key and the HMAC secret) and every grant, code and token, keeping accounts' passwords: for a restore whose key
    /// is lost. New secrets are made under the new key at the next start; every member signs in again.
    public static func forgetSealedState(dataDirectory: String) throws {
        let path = dataDirectory + "/auth.sqlite"
        guard FileManager.default.fileExists(atPath: path) else { return }
        let database = try Database(path: path)
        try database.migrate(AuthSchema.migrations)
        try database.write { connection in
            for table in ["secrets", "access_tokens", "refresh_tokens", "grants", "codes", "par_requests", "used_jtis"] {
                try connection.execute("DELETE FROM \(table)")
            }
        }
        try database.checkpoint()
    }

    /// Whether `<dataDirectory>/auth.sqlite` holds anything sealed with a key.
    public static func hasSealedState(dataDirectory: String) throws -> Bool {
        let path = dataDirectory + "/auth.sqlite"
        guard FileManager.default.fileExists(atPath: path) else { return false }
        let connection = try Connection.readOnly(path)
        let tables = try connection.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'secrets'")
        guard !tables.isEmpty else { return false }
        return try connection.queryOne("SELECT 1 AS x FROM secrets LIMIT 1") != nil
    }
}
