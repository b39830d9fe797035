import Storage

extension AuthSchema {
    /// Seconds a used or expired code is kept, so that a late replay still revokes what it produced.
    static let codeRetention: Int64 = 86400

    /// The deletes of ``AuthServer/pruneExpired()``, in order (tokens before the grants they keep alive): what can
    /// no longer be used or replayed. Every one runs on an index, so a flood of rows costs one bounded pass.
    static func pruneStatements(now: Int64) -> [(sql: String, arguments: [any SQLBindable])] {
        [
            ("DELETE FROM par_requests WHERE expires_at < ?", [now]),
            ("DELETE FROM codes WHERE expires_at < ?", [now - codeRetention]),
            ("DELETE FROM access_tokens WHERE expires_at < ?", [now]),
            ("DELETE FROM refresh_tokens WHERE expires_at < ?", [now]),
            ("DELETE FROM access_tokens WHERE grant_id IN (SELECT id FROM grants WHERE revoked = 1)", []),
            ("DELETE FROM refresh_tokens WHERE grant_id IN (SELECT id FROM grants WHERE revoked = 1)", []),
            ("DELETE FROM used_jtis WHERE expires_at < ?", [now]),
            (
                """
                DELETE FROM grants WHERE created_at < ?
                    AND NOT EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.grant_id = grants.id)
                    AND NOT EXISTS (SELECT 1 FROM access_tokens a WHERE a.grant_id = grants.id)
                """, [now - codeRetention]
            ),
        ]
    }
}
