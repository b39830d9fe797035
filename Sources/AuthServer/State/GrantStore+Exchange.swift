import ATProto
import Crypto
import Logging
import Storage

extension GrantStore {
    /// What a token request presents, besides the grant-specific secret.
    struct Presentation {
        var clientID: String
        /// The checked DPoP proof of the request: its key and the origin its `htu` names.
        var proof: ProofChecker.CheckedProof
        var now: Int64
        /// Whether the directory still has the account a code or grant belongs to.
        var accountExists: (String) throws -> Bool
    }

    typealias Exchange = Result<(Grant, IssuedTokens), OAuthErrorResponse>

    /// The authorization-code grant. The code is spent on first presentation, whatever the outcome; presenting
    /// it again revokes the grant it produced (RFC 6749 §4.1.2). The proof must name the flow's issuer.
    func redeem(code: String, redirectURI: String, verifier: String, _ presented: Presentation) throws -> Exchange {
        let jkt = presented.proof.verified.jkt
        let hash = Self.tokenHash(code)
        return try database.write { connection in
            guard let row = try connection.queryOne("SELECT * FROM codes WHERE hash = ?", [hash]) else {
                return .failure(.invalidGrant("Invalid authorization code"))
            }
            guard row.int("used") == 0 else {
                try connection.execute("UPDATE grants SET revoked = 1 WHERE code_hash = ?", [hash])
                return .failure(.invalidGrant("Authorization code already used"))
            }
            try connection.execute("UPDATE codes SET used = 1 WHERE hash = ?", [hash])
            guard let expiresAt = row.int("expires_at"), Int64(expiresAt) > presented.now else {
                return .failure(.invalidGrant("Authorization code expired"))
            }
            guard row.string("client_id") == presented.clientID else {
                return .failure(.invalidGrant("client_id mismatch"))
            }
            guard row.string("redirect_uri") == redirectURI else {
                return .failure(.invalidGrant("redirect_uri mismatch"))
            }
            guard PKCE.verify(verifier: verifier, challenge: row.string("code_challenge") ?? "") else {
                return .failure(.invalidGrant("PKCE verification failed"))
            }
            guard row.string("jkt") == jkt else { return .failure(.invalidGrant("DPoP key mismatch")) }
            let issuer = Self.grantIssuer(row.string("issuer"), proof: presented.proof)
            guard issuer == presented.proof.origin else { return .failure(Self.issuerMismatch(issuer)) }
            guard try presented.accountExists(row.string("did") ?? "") else {
                return .failure(.invalidGrant("The account no longer exists"))
            }
            let grant = Grant(
                id: SecureRandom.token(byteCount: 16), did: row.string("did") ?? "", clientID: presented.clientID,
                scope: row.string("scope") ?? "atproto", jkt: jkt, issuer: issuer)
            try connection.execute(
                """
                INSERT INTO grants (id, did, client_id, scope, jkt, issuer, code_hash, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, [grant.id, grant.did, grant.clientID, grant.scope, grant.jkt, grant.issuer, hash, presented.now])
            return .success((grant, try issueTokens(grant, connection, now: presented.now)))
        }
    }

    /// The refresh-token grant with rotation. The new tokens must be asked for with the grant's own DPoP key
    /// (stricter than hatk) under the grant's issuer, and a rotated-out token presented again revokes the whole
    /// grant.
    func rotate(refreshToken token: String, _ presented: Presentation) throws -> Exchange {
        let jkt = presented.proof.verified.jkt
        let hash = Self.tokenHash(token)
        return try database.write { connection in
            let row = try connection.queryOne(
                """
                SELECT r.expires_at, r.used, g.id AS grant_id, g.did, g.client_id, g.scope, g.jkt, g.issuer, g.revoked
                FROM refresh_tokens r JOIN grants g ON g.id = r.grant_id WHERE r.hash = ?
                """, [hash])
            guard let row, var grant = Grant(row: row) else { return .failure(.invalidGrant("Invalid refresh token")) }
            guard row.int("revoked") == 0 else { return .failure(.invalidGrant("Refresh token revoked")) }
            guard row.int("used") == 0 else {
                try Self.revokeGrant(grant.id, connection)
                log.warning("a rotated refresh token was presented again; grant revoked")
                return .failure(.invalidGrant("Refresh token revoked"))
            }
            guard let expiresAt = row.int("expires_at"), Int64(expiresAt) > presented.now else {
                return .failure(.invalidGrant("Refresh token expired"))
            }
            guard grant.clientID == presented.clientID else { return .failure(.invalidGrant("client_id mismatch")) }
            guard grant.jkt == jkt else { return .failure(.invalidGrant("DPoP key mismatch")) }
            grant.issuer = Self.grantIssuer(grant.issuer, proof: presented.proof)
            guard grant.issuer == presented.proof.origin else { return .failure(Self.issuerMismatch(grant.issuer)) }
            guard try presented.accountExists(grant.did) else {
                return .failure(.invalidGrant("The account no longer exists"))
            }
            try connection.execute("UPDATE refresh_tokens SET used = 1 WHERE hash = ?", [hash])
            return .success((grant, try issueTokens(grant, connection, now: presented.now)))
        }
    }

    /// A stored issuer, or for rows from before issuers were recorded, the origin the proof names.
    private static func grantIssuer(_ stored: String?, proof: ProofChecker.CheckedProof) -> String {
        guard let stored, !stored.isEmpty else { return proof.origin }
        return stored
    }

    /// The token request's proof named another of our origins than the one the flow started under.
    private static func issuerMismatch(_ issuer: String) -> OAuthErrorResponse {
        .invalidProof("DPoP htu must name this session's issuer, \(issuer)")
    }
}
