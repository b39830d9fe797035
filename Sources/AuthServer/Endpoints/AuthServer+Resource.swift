import ATProto
import Crypto
import Foundation
public import HTTPServer
import Logging
import Storage

extension AuthServer {
    /// Why a resource request carries no usable credential; logged, never shown to the client.
    enum ResourceRefusal: Error, Equatable, CustomStringConvertible {
        /// No `Authorization: DPoP` header: an anonymous request, not a failure.
        case noCredentials
        case missingProof
        case invalidToken(String)
        case tokenExpired
        case invalidProof(String)
        case keyMismatch
        case nonceRequired
        case revoked
        case unknownAccount

        var description: String {
            switch self {
            case .noCredentials: "no DPoP credentials"
            case .missingProof: "DPoP token without exactly one DPoP proof"
            case .invalidToken(let why): "access token rejected: \(why)"
            case .tokenExpired: "access token expired"
            case .invalidProof(let why): "DPoP proof rejected: \(why)"
            case .keyMismatch: "DPoP proof key does not match the token's cnf.jkt"
            case .nonceRequired: "DPoP proof lacks the current nonce"
            case .revoked: "access token revoked"
            case .unknownAccount: "the token's account no longer exists or may not sign in"
            }
        }
    }

    /// The account and granted scope a backend request acts for: `Authorization: DPoP <token>` with a matching
    /// `DPoP` proof whose `htu` is one of our origins plus the request path (the origin the client addressed, not
    /// the Host the request arrived with). Any failure gives nil, as in hatk; it is logged, because a wrong public
    /// URL otherwise shows up only as "logged out".
    public func resourceViewer(for request: Request) async -> ResourceViewer? {
        switch authenticate(request) {
        case .success(let viewer):
            return viewer
        case .failure(.noCredentials), .failure(.nonceRequired):
            // Anonymous requests and nonce challenges are normal traffic, not failures worth a log line.
            return nil
        case .failure(let refusal):
            log.warning("\(request.method) \(request.path): \(refusal)")
            return nil
        }
    }

    /// The checks of ``resourceViewer(for:)``, with the reason for a refusal.
    func authenticate(_ request: Request) -> Result<ResourceViewer, ResourceRefusal> {
        guard let authorization = request.headers["Authorization"], let token = Self.dpopToken(authorization) else {
            return .failure(.noCredentials)
        }
        let proofs = request.headers.values("DPoP")
        guard proofs.count == 1 else { return .failure(.missingProof) }
        let now = clock().unixSeconds
        let claims: AccessTokenClaims
        switch verifyAccessToken(token, now: now) {
        case .success(let verified): claims = verified
        case .failure(let refusal): return .failure(refusal)
        }
        let proof: DPoP.Verified
        do {
            proof = try checkProof(
                proofs[0], method: request.method.rawValue, path: request.path, now: now, accessToken: token
            ).verified
        } catch {
            return .failure(.invalidProof(error.description))
        }
        guard constantTimeEquals(Array(proof.jkt.utf8), Array(claims.cnf.jkt.utf8)) else {
            return .failure(.keyMismatch)
        }
        guard nonceAccepted(proof.nonce, now: now) else { return .failure(.nonceRequired) }
        let live = try? database.read { connection in
            try connection.queryOne(
                """
                SELECT 1 AS live FROM access_tokens a JOIN grants g ON g.id = a.grant_id
                WHERE a.jti = ? AND g.revoked = 0
                """, [claims.jti]) != nil
        }
        guard live == true else { return .failure(.revoked) }
        guard let did = DID.parse(claims.sub) else { return .failure(.invalidToken("sub is not a DID")) }
        guard (try? accounts.account(did: did)) != nil else { return .failure(.unknownAccount) }
        return .success(ResourceViewer(did: did, scope: claims.scope, clientID: claims.client_id))
    }

    /// Whether a resource request's head carries credentials worth reading its body for: `Authorization: DPoP`
    /// with an access token of ours (signature, type, issuer, expiry) and one `DPoP` proof header.
    ///
    /// This is the cheap part of ``resourceViewer(for:)`` (one signature check, no database, nothing consumed), so
    /// it can run on a server thread before any body byte is read: a made-up token is refused at once instead of
    /// the server holding a 5 MB body for it. The proof, its replay check, the nonce and revocation are checked
    /// once the body is in.
    public func admitsResourceRequest(_ head: some RequestHeadFields) -> Bool {
        guard let authorization = head.headers["Authorization"], let token = Self.dpopToken(authorization),
            head.headers.values("DPoP").count == 1
        else { return false }
        return (try? verifyAccessToken(token, now: clock().unixSeconds).get()) != nil
    }

    /// The claims of an access token we issued that has not expired; the proof it must come with is not looked at.
    private func verifyAccessToken(_ token: String, now: Int64) -> Result<AccessTokenClaims, ResourceRefusal> {
        let verifiedToken: (header: AccessTokenHeader, claims: AccessTokenClaims)
        do {
            verifiedToken = try JWT.verify(
                token, key: signingKey.publicKey, header: AccessTokenHeader.self, claims: AccessTokenClaims.self)
        } catch {
            return .failure(.invalidToken(error.description))
        }
        let claims = verifiedToken.claims
        guard verifiedToken.header.typ == "at+jwt" else { return .failure(.invalidToken("typ is not at+jwt")) }
        // Every origin of ours is the same server with the same key, so a token issued under one is good under
        // another (a member's phone on the Wi-Fi address, the front calling over loopback).
        guard ownOrigin(claims.iss) == claims.iss, claims.aud == claims.iss else {
            return .failure(.invalidToken("issued for another issuer"))
        }
        guard claims.exp > now else { return .failure(.tokenExpired) }
        return .success(claims)
    }

    /// In nonce mode, the challenge for a request whose DPoP proof lacks a current nonce, so the backend can answer
    /// `401` with `WWW-Authenticate` and `DPoP-Nonce` and the client retries. Nil when nonces are off, the request
    /// has no proof, or its nonce is fine.
    public func dpopChallenge(for request: Request) -> (nonce: String, wwwAuthenticate: String)? {
        guard configuration.requireDPoPNonce, let proof = request.headers["DPoP"] else { return nil }
        let now = clock().unixSeconds
        let sent = try? JWT.decode(proof, header: IgnoredHeader.self, claims: NonceClaim.self).claims.nonce
        guard !nonceAccepted(sent, now: now), let nonce = currentDPoPNonce() else { return nil }
        return (nonce, #"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#)
    }

    /// The token of an `Authorization: DPoP <token>` header (scheme case-insensitive); nil for other schemes.
    static func dpopToken(_ authorization: String) -> String? {
        let parts = authorization.split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "\t" })
        guard parts.count == 2, parts[0].lowercased() == "dpop" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    private struct NonceClaim: Decodable {
        var nonce: String?
    }
}
