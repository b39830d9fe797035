import ATProto
import Crypto
import Storage

/// What sign-ins produced (`codes`, `grants`, `refresh_tokens`, `access_tokens`): codes are stored by the sign-in
/// form, spent and rotated into tokens here, and every token of a grant stops working once the grant is revoked.
struct GrantStore: Sendable {
    /// Seconds an authorization code is valid.
    static let codeLifetime: Int64 = 60

    let database: Database
    let signer: TokenSigner
    let accessTokenLifetime: Int64
    let refreshTokenLifetime: Int64

    /// The tokens one grant or refresh hands out.
    struct IssuedTokens {
        var accessToken: String
        var refreshToken: String
        var expiresIn: Int64
    }

    /// The stored form of a code or refresh token: hex would do as well; base64url keeps it short.
    static func tokenHash(_ token: String) -> String {
        Base64URL.encode(SHA256.hash(token))
    }

    /// Stores a fresh code for `pending`, signed in as `did`, inside the transaction that consumes the request.
    static func storeCode(
        _ code: String, did: String, for pending: PendingRequest, issuer: String, now: Int64, in connection: Connection
    ) throws {
        try connection.execute(
            """
            INSERT INTO codes (hash, did, client_id, redirect_uri, scope, code_challenge, jkt, issuer, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                tokenHash(code), did, pending.clientID, pending.redirectURI, pending.scope, pending.codeChallenge,
                pending.jkt, issuer, now + codeLifetime,
            ])
    }

    /// Revokes the grant of a refresh or access token, if `clientID` (when given) owns it; unknown tokens and
    /// other clients' grants are ignored, not reported (RFC 7009 §2.1).
    func revoke(token: String, clientID: String?) throws {
        try database.write { connection in
            var grantID = try connection.queryOne(
                "SELECT grant_id FROM refresh_tokens WHERE hash = ?", [Self.tokenHash(token)]
            )?.string("grant_id")
            if grantID == nil, let claims = try? signer.claims(of: token) {
                grantID = try connection.queryOne(
                    "SELECT grant_id FROM access_tokens WHERE jti = ?", [claims.jti]
                )?.string("grant_id")
            }
            guard let grantID else { return }
            if let clientID {
                let owner = try connection.queryOne("SELECT client_id FROM grants WHERE id = ?", [grantID])
                guard owner?.string("client_id") == clientID else { return }
            }
            try Self.revokeGrant(grantID, connection)
        }
    }

    /// Whether the access token `jti` is still stored and its grant not revoked; nil when that cannot be read.
    func isLive(jti: String) -> Bool? {
        try? database.read { connection in
            try connection.queryOne(
                """
                SELECT 1 AS live FROM access_tokens a JOIN grants g ON g.id = a.grant_id
                WHERE a.jti = ? AND g.revoked = 0
                """, [jti]) != nil
        }
    }

    /// Revokes every grant of an account.
    func revokeGrants(for did: DID) throws {
        try database.write { try $0.execute("UPDATE grants SET revoked = 1 WHERE did = ?", [did.rawValue]) }
    }

    /// Revokes a grant: every refresh and access token issued from it stops working.
    static func revokeGrant(_ id: String, _ connection: Connection) throws {
        try connection.execute("UPDATE grants SET revoked = 1 WHERE id = ?", [id])
    }

    /// Signs an access token and stores a new refresh token (hashed) for `grant`.
    func issueTokens(_ grant: Grant, _ connection: Connection, now: Int64) throws -> IssuedTokens {
        let claims = AccessTokenClaims(
            iss: grant.issuer, sub: grant.did, aud: grant.issuer, client_id: grant.clientID, scope: grant.scope,
            jti: SecureRandom.token(byteCount: 16), iat: now, exp: now + accessTokenLifetime, cnf: .init(jkt: grant.jkt))
        let accessToken = try signer.sign(claims)
        let refreshToken = SecureRandom.token(byteCount: 32)
        try connection.execute(
            "INSERT INTO access_tokens (jti, grant_id, expires_at) VALUES (?, ?, ?)", [claims.jti, grant.id, claims.exp])
        try connection.execute(
            "INSERT INTO refresh_tokens (hash, grant_id, expires_at) VALUES (?, ?, ?)",
            [Self.tokenHash(refreshToken), grant.id, now + refreshTokenLifetime])
        return IssuedTokens(accessToken: accessToken, refreshToken: refreshToken, expiresIn: accessTokenLifetime)
    }
}
