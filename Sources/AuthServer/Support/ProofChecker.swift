import ATProto
import Crypto
import Foundation
import HTTPServer
import WebAddresses

/// Checks DPoP proofs for this server: for the resource checks (``check(_:method:path:now:accessToken:)``) and,
/// with nonce and replay checks, for the PAR, token and revocation endpoints (``authorizationServerProof``).
struct ProofChecker: Sendable {
    /// Longest `jti` stored for replay detection; ours and hatk clients' are UUIDs or 22-character tokens.
    static let maxJTILength = 256

    let isOwnOrigin: @Sendable (String) -> Bool
    let nonces: DPoPNonces
    let spent: SpentProofs

    /// A proof that passed ``check(_:method:path:now:accessToken:)``, with the origin its `htu` names.
    struct CheckedProof: Sendable, Equatable {
        var verified: DPoP.Verified
        /// The serialized origin of `htu`, one of ours: the origin the client addressed, whichever way the request
        /// arrived (through a TLS proxy, or from our own front over loopback).
        var origin: String
    }

    /// Why ``check(_:method:path:now:accessToken:)`` refused a proof; the text goes into error descriptions.
    struct ProofRefusal: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    struct IgnoredHeader: Decodable {}

    private struct TargetClaim: Decodable {
        var htu: String?
    }

    /// Checks one DPoP proof for a request to `path` on this server: everything `DPoP.verify` checks (signature
    /// first, then `htm`, `iat`, `ath`), and an `htu` whose path is `path` and whose origin is one of ours.
    ///
    /// The `htu` is not compared with the request's own Host: behind a TLS proxy, or when our front calls its
    /// backend over loopback while naming the browser's origin, the two differ, and the proof is still for us.
    /// Like hatk, the comparison ignores case, the query and a trailing slash.
    func check(
        _ proof: String, method: String, path: String, now: Int64, accessToken: String? = nil
    ) throws(ProofRefusal) -> CheckedProof {
        // The claimed htu is read before the signature is checked only to pass it back to DPoP.verify, which then
        // verifies the signature over it; nothing is decided on it until that has held.
        let htu = (try? JWT.decode(proof, header: IgnoredHeader.self, claims: TargetClaim.self))?.claims.htu
        let verified: DPoP.Verified
        do {
            verified = try DPoP.verify(proof, method: method, url: htu ?? "", now: now, accessToken: accessToken)
        } catch {
            throw ProofRefusal(description: error.description)
        }
        guard let htu, let target = Self.proofTarget(htu), Self.comparablePath(path) == target.path else {
            throw ProofRefusal(description: DPoP.ProofError(.htuMismatch).description)
        }
        guard isOwnOrigin(target.origin) else {
            throw ProofRefusal(description: "htu names an origin this server is not served at")
        }
        return CheckedProof(verified: verified, origin: target.origin)
    }

    /// The serialized origin and comparable path of an `htu`; nil when it is not an absolute http(s) URL.
    static func proofTarget(_ htu: String) -> (origin: String, path: String)? {
        let target = DPoP.targetURI(htu)
        guard let origin = Origin(target), let components = URLComponents(string: target) else { return nil }
        return (origin.description, comparablePath(components.percentEncodedPath))
    }

    /// A path as hatk compares it: lower case, without a trailing slash.
    static func comparablePath(_ path: String) -> String {
        var path = path.lowercased()
        if path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// Checks the DPoP proof of a request to the PAR, token or revocation endpoint and records its `jti`.
    ///
    /// The nonce is checked before the `jti` is recorded, so the client's retry after `use_dpop_nonce` is not
    /// mistaken for a replay.
    /// - Parameter path: our endpoint path; `htu` must be one of our origins plus this path.
    func authorizationServerProof(_ request: Request, path: String, now: Int64) throws -> CheckedProof {
        let proofs = request.headers.values("DPoP")
        guard let proof = proofs.first else { throw OAuthErrorResponse.invalidProof("DPoP proof required") }
        guard proofs.count == 1 else { throw OAuthErrorResponse.invalidProof("Send exactly one DPoP header") }
        let checked: CheckedProof
        do {
            checked = try check(proof, method: request.method.rawValue, path: path, now: now)
        } catch {
            throw OAuthErrorResponse.invalidProof("Invalid DPoP proof: \(error.description)")
        }
        let verified = checked.verified
        try checkNonce(verified.nonce, now: now)
        guard verified.jti.utf8.count <= Self.maxJTILength else { throw OAuthErrorResponse.invalidProof("DPoP jti too long") }
        // Valid proofs have iat >= now - 300, so nothing older than iat + 300 needs remembering.
        guard try spent.record(verified.jti, until: verified.iat + 300) else {
            throw OAuthErrorResponse.invalidProof("DPoP proof replayed")
        }
        return checked
    }

    /// In nonce mode, refuses a proof without the current (or previous) nonce.
    func checkNonce(_ nonce: String?, now: Int64) throws(OAuthErrorResponse) {
        guard !nonces.accepts(nonce, now: now) else { return }
        throw OAuthErrorResponse(.useDPoPNonce, "Authorization server requires nonce in DPoP proof")
    }
}
