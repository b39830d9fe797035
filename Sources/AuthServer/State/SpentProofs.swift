import Storage

/// The `jti`s of DPoP proofs already presented to the authorization endpoints (`used_jtis`), so none is accepted
/// twice.
struct SpentProofs: Sendable {
    let database: Database

    /// Records `jti` until `expiresAt`; false when it was recorded before (a replay).
    func record(_ jti: String, until expiresAt: Int64) throws -> Bool {
        try database.write { connection in
            try connection.execute("INSERT OR IGNORE INTO used_jtis (jti, expires_at) VALUES (?, ?)", [jti, expiresAt])
            return connection.changes > 0
        }
    }
}
