import Crypto
import Storage

/// The pushed authorization requests waiting for a sign-in (`par_requests`): stored by PAR, read by the sign-in
/// page, consumed once by the form.
struct PendingRequests: Sendable {
    static let uriPrefix = "urn:ietf:params:oauth:request_uri:"
    /// Seconds a pushed request stays usable (hatk: 600).
    static let lifetime: Int64 = 600

    let database: Database
    /// Live requests kept at most, so that a flood cannot grow `auth.sqlite` without bound.
    let capacity: Int

    /// Stores `pushed` under a fresh request URI; nil when ``capacity`` requests are already stored.
    func add(_ pushed: PendingRequest, now: Int64) throws -> String? {
        let requestURI = Self.uriPrefix + SecureRandom.token(byteCount: 32)
        let stored = try database.write { connection -> Bool in
            // Expired rows still count until the pruning timer removes them; the cap is on the table's size.
            let pending = try connection.queryOne("SELECT COUNT(*) AS n FROM par_requests")?.int("n") ?? 0
            guard pending < capacity else { return false }
            try connection.execute(
                """
                INSERT INTO par_requests (request_uri, client_id, redirect_uri, scope, state, code_challenge,
                    login_hint, jkt, issuer, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    requestURI, pushed.clientID, pushed.redirectURI, pushed.scope, pushed.state,
                    pushed.codeChallenge, pushed.loginHint, pushed.jkt, pushed.issuer, now + Self.lifetime,
                ])
            return true
        }
        return stored ? requestURI : nil
    }

    /// The pending request for `requestURI` if it exists, is unexpired and has not been used.
    func find(_ requestURI: String, now: Int64) throws -> PendingRequest? {
        guard requestURI.hasPrefix(Self.uriPrefix) else { return nil }
        let row = try database.read { connection in
            try connection.queryOne(
                "SELECT * FROM par_requests WHERE request_uri = ? AND consumed = 0 AND expires_at > ?",
                [requestURI, now])
        }
        return row.flatMap(PendingRequest.init(row:))
    }

    /// Marks a pending request used and runs `outcome` in the same transaction, so that what the sign-in produced
    /// exists exactly when the request is spent. Nil if another submission got there first or it expired meanwhile.
    func consume<Outcome>(
        _ requestURI: String, now: Int64, then outcome: (Connection) throws -> Outcome
    ) throws -> Outcome? {
        try database.write { connection -> Outcome? in
            try connection.execute(
                "UPDATE par_requests SET consumed = 1 WHERE request_uri = ? AND consumed = 0 AND expires_at > ?",
                [requestURI, now])
            guard connection.changes == 1 else { return nil }
            return try outcome(connection)
        }
    }
}
