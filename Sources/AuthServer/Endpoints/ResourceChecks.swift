import ATProto
import Crypto
import Foundation
import HTTPServer
import Logging

/// What the backend asks of the authorization server about its own requests: whether an access token with its
/// DPoP proof is ours and live, and which nonce challenge to answer with.
struct ResourceChecks: Sendable {
    let signer: TokenSigner
    let proofs: ProofChecker
    let grants: GrantStore
    let accounts: any AccountDirectory
    let origins: OwnOrigins
    let clock: @Sendable () -> UTCTime

    private var nonces: DPoPNonces { proofs.nonces }

    private struct NonceClaim: Decodable {
        var nonce: String?
    }

    /// See ``AuthServer/resourceViewer(for:)``.
    func resourceViewer(for request: Request) async -> ResourceViewer? {
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
            proof = try self.proofs.check(
                proofs[0], method: request.method.rawValue, path: request.path, now: now, accessToken: token
            ).verified
        } catch {
            return .failure(.invalidProof(error.description))
        }
        guard constantTimeEquals(Array(proof.jkt.utf8), Array(claims.cnf.jkt.utf8)) else {
            return .failure(.keyMismatch)
        }
        guard nonces.accepts(proof.nonce, now: now) else { return .failure(.nonceRequired) }
        guard grants.isLive(jti: claims.jti) == true else { return .failure(.revoked) }
        guard let did = DID.parse(claims.sub) else { return .failure(.invalidToken("sub is not a DID")) }
        guard (try? accounts.account(did: did)) != nil else { return .failure(.unknownAccount) }
        return .success(ResourceViewer(did: did, scope: claims.scope, clientID: claims.client_id))
    }

    /// See ``AuthServer/admitsResourceRequest(_:)``.
    func admitsResourceRequest(_ head: some RequestHeadFields) -> Bool {
        guard let authorization = head.headers["Authorization"], let token = Self.dpopToken(authorization),
            head.headers.values("DPoP").count == 1
        else { return false }
        return (try? verifyAccessToken(token, now: clock().unixSeconds).get()) != nil
    }

    /// The claims of an access token we issued that has not expired; the proof it must come with is not looked at.
    private func verifyAccessToken(_ token: String, now: Int64) -> Result<AccessTokenClaims, ResourceRefusal> {
        let verifiedToken: (header: AccessTokenHeader, claims: AccessTokenClaims)
        do {
            verifiedToken = try signer.verify(token)
        } catch {
            return .failure(.invalidToken(error.description))
        }
        let claims = verifiedToken.claims
        guard verifiedToken.header.typ == "at+jwt" else { return .failure(.invalidToken("typ is not at+jwt")) }
        // Every origin of ours is the same server with the same key, so a token issued under one is good under
        // another (a member's phone on the Wi-Fi address, the front calling over loopback).
        guard origins.origin(of: claims.iss) == claims.iss, claims.aud == claims.iss else {
            return .failure(.invalidToken("issued for another issuer"))
        }
        guard claims.exp > now else { return .failure(.tokenExpired) }
        return .success(claims)
    }

    /// See ``AuthServer/dpopChallenge(for:)``.
    func dpopChallenge(for request: Request) -> (nonce: String, wwwAuthenticate: String)? {
        guard nonces.isRequired, let proof = request.headers["DPoP"] else { return nil }
        let now = clock().unixSeconds
        let sent = try? JWT.decode(proof, header: ProofChecker.IgnoredHeader.self, claims: NonceClaim.self).claims.nonce
        guard !nonces.accepts(sent, now: now), let nonce = nonces.current() else { return nil }
        return (nonce, #"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#)
    }

    /// The token of an `Authorization: DPoP <token>` header (scheme case-insensitive); nil for other schemes.
    static func dpopToken(_ authorization: String) -> String? {
        let parts = authorization.split(maxSplits: 1, whereSeparator: { $0 == " " || $0 == "\t" })
        guard parts.count == 2, parts[0].lowercased() == "dpop" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
