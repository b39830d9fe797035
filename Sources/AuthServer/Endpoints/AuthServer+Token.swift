import ATProto
import Crypto
import HTTPServer
import Logging
import Storage

extension AuthServer {
    /// `POST /oauth/token`: the authorization-code and refresh-token grants, both DPoP-bound.
    func token(_ request: Request) -> Response {
        handleOAuth("token") {
            let now = clock().unixSeconds
            let proof = try authorizationServerProof(request, path: "/oauth/token", now: now)
            let parameters = try OAuthParameters(request: request)
            let grant: Result<(Grant, IssuedTokens), OAuthErrorResponse>
            switch parameters["grant_type"] {
            case "authorization_code": grant = try exchangeCode(parameters, proof: proof, now: now)
            case "refresh_token": grant = try refresh(parameters, proof: proof, now: now)
            case nil: throw OAuthErrorResponse.invalidRequest("Missing grant_type")
            default: throw OAuthErrorResponse(.unsupportedGrantType, "Unsupported grant_type")
            }
            let (issued, tokens) = try grant.get()
            let handle = DID.parse(issued.did).flatMap { try? accounts.account(did: $0) }?.handle
            return Self.noStoreJSON(
                TokenResponse(
                    access_token: tokens.accessToken, expires_in: tokens.expiresIn, refresh_token: tokens.refreshToken,
                    sub: issued.did, scope: issued.scope, handle: handle))
        }
    }

    struct IssuedTokens {
        var accessToken: String
        var refreshToken: String
        var expiresIn: Int64
    }

    /// The authorization-code grant. The code is spent on first presentation, whatever the outcome; presenting
    /// it again revokes the grant it produced (RFC 6749 §4.1.2). The proof must name the flow's issuer.
    private func exchangeCode(
        _ parameters: OAuthParameters, proof: CheckedProof, now: Int64
    ) throws -> Result<(Grant, IssuedTokens), OAuthErrorResponse> {
        let jkt = proof.verified.jkt
        let code = try parameters.require("code")
        let clientID = try parameters.require("client_id")
        let redirectURI = try parameters.require("redirect_uri")
        let verifier = try parameters.require("code_verifier")
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
            guard let expiresAt = row.int("expires_at"), Int64(expiresAt) > now else {
                return .failure(.invalidGrant("Authorization code expired"))
            }
            guard row.string("client_id") == clientID else { return .failure(.invalidGrant("client_id mismatch")) }
            guard row.string("redirect_uri") == redirectURI else {
                return .failure(.invalidGrant("redirect_uri mismatch"))
            }
            guard PKCE.verify(verifier: verifier, challenge: row.string("code_challenge") ?? "") else {
                return .failure(.invalidGrant("PKCE verification failed"))
            }
            guard row.string("jkt") == jkt else { return .failure(.invalidGrant("DPoP key mismatch")) }
            let issuer = Self.grantIssuer(row.string("issuer"), proof: proof)
            guard issuer == proof.origin else { return .failure(Self.issuerMismatch(issuer)) }
            guard try isSignInAllowed(row.string("did") ?? "") else {
                return .failure(.invalidGrant("The account no longer exists"))
            }
            let grant = Grant(
                id: SecureRandom.token(byteCount: 16), did: row.string("did") ?? "", clientID: clientID,
                scope: row.string("scope") ?? "atproto", jkt: jkt, issuer: issuer)
            try connection.execute(
                """
                INSERT INTO grants (id, did, client_id, scope, jkt, issuer, code_hash, created_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, [grant.id, grant.did, grant.clientID, grant.scope, grant.jkt, grant.issuer, hash, now])
            return .success((grant, try issueTokens(grant, connection, now: now)))
        }
    }

    /// The refresh-token grant with rotation. The new tokens must be asked for with the grant's own DPoP key
    /// (stricter than hatk) under the grant's issuer, and a rotated-out token presented again revokes the whole
    /// grant.
    private func refresh(
        _ parameters: OAuthParameters, proof: CheckedProof, now: Int64
    ) throws -> Result<(Grant, IssuedTokens), OAuthErrorResponse> {
        let jkt = proof.verified.jkt
        let token = try parameters.require("refresh_token")
        let clientID = try parameters.require("client_id")
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
            guard let expiresAt = row.int("expires_at"), Int64(expiresAt) > now else {
                return .failure(.invalidGrant("Refresh token expired"))
            }
            guard grant.clientID == clientID else { return .failure(.invalidGrant("client_id mismatch")) }
            guard grant.jkt == jkt else { return .failure(.invalidGrant("DPoP key mismatch")) }
            grant.issuer = Self.grantIssuer(grant.issuer, proof: proof)
            guard grant.issuer == proof.origin else { return .failure(Self.issuerMismatch(grant.issuer)) }
            guard try isSignInAllowed(grant.did) else { return .failure(.invalidGrant("The account no longer exists")) }
            try connection.execute("UPDATE refresh_tokens SET used = 1 WHERE hash = ?", [hash])
            return .success((grant, try issueTokens(grant, connection, now: now)))
        }
    }

    /// A stored issuer, or for rows from before issuers were recorded, the origin the proof names.
    private static func grantIssuer(_ stored: String?, proof: CheckedProof) -> String {
        guard let stored, !stored.isEmpty else { return proof.origin }
        return stored
    }

    /// The token request's proof named another of our origins than the one the flow started under.
    private static func issuerMismatch(_ issuer: String) -> OAuthErrorResponse {
        .invalidProof("DPoP htu must name this session's issuer, \(issuer)")
    }

    /// Whether the directory still has the account a code or grant belongs to.
    private func isSignInAllowed(_ did: String) throws -> Bool {
        guard let did = DID.parse(did) else { return false }
        return try accounts.account(did: did) != nil
    }

    /// Signs an access token and stores a new refresh token (hashed) for `grant`.
    private func issueTokens(_ grant: Grant, _ connection: Connection, now: Int64) throws -> IssuedTokens {
        let lifetime = configuration.accessTokenLifetime.wholeSeconds
        let claims = AccessTokenClaims(
            iss: grant.issuer, sub: grant.did, aud: grant.issuer, client_id: grant.clientID, scope: grant.scope,
            jti: SecureRandom.token(byteCount: 16), iat: now, exp: now + lifetime, cnf: .init(jkt: grant.jkt))
        let accessToken = try JWT.sign(header: AccessTokenHeader(kid: keyID), claims: claims, key: signingKey)
        let refreshToken = SecureRandom.token(byteCount: 32)
        try connection.execute(
            "INSERT INTO access_tokens (jti, grant_id, expires_at) VALUES (?, ?, ?)", [claims.jti, grant.id, claims.exp])
        try connection.execute(
            "INSERT INTO refresh_tokens (hash, grant_id, expires_at) VALUES (?, ?, ?)",
            [Self.tokenHash(refreshToken), grant.id, now + configuration.refreshTokenLifetime.wholeSeconds])
        return IssuedTokens(accessToken: accessToken, refreshToken: refreshToken, expiresIn: lifetime)
    }
}
