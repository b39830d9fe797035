import ATProto
import Crypto
import Storage

extension AuthServer {
    /// Seconds a used or expired code is kept, so that a late replay still revokes what it produced.
    static let codeRetention: Int64 = 86400

    /// The stored form of a code or refresh token: hex would do as well; base64url keeps it short.
    static func tokenHash(_ token: String) -> String {
        Base64URL.encode(SHA256.hash(token))
    }

    /// The pending request for `requestURI` if it exists, is unexpired and has not been used.
    func pendingRequest(_ requestURI: String, now: Int64) throws -> PendingRequest? {
        guard requestURI.hasPrefix(Self.requestURIPrefix) else { return nil }
        let row = try database.read { connection in
            try connection.queryOne(
                "SELECT * FROM par_requests WHERE request_uri = ? AND consumed = 0 AND expires_at > ?",
                [requestURI, now])
        }
        return row.flatMap(PendingRequest.init(row:))
    }

    /// Marks a pending request used; false if another submission got there first or it expired meanwhile.
    static func consumeRequest(_ requestURI: String, _ connection: Connection, now: Int64) throws -> Bool {
        try connection.execute(
            "UPDATE par_requests SET consumed = 1 WHERE request_uri = ? AND consumed = 0 AND expires_at > ?",
            [requestURI, now])
        return connection.changes == 1
    }

    /// Revokes a grant: every refresh and access token issued from it stops working.
    static func revokeGrant(_ id: String, _ connection: Connection) throws {
        try connection.execute("UPDATE grants SET revoked = 1 WHERE id = ?", [id])
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
            for (sql, arguments) in Self.pruneStatements(now: now) {
                try connection.execute(sql, arguments)
                deleted += connection.changes
            }
            return deleted
        }
    }

    /// The deletes of ``pruneExpired()``, in order (tokens before the grants they keep alive).
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
