import Crypto
import HTTPServer

extension AuthServer {
    /// Longest `jti` stored for replay detection; ours and hatk clients' are UUIDs or 22-character tokens.
    static let maxJTILength = 256

    /// Checks the DPoP proof of a request to the PAR or token endpoint and records its `jti`.
    ///
    /// The nonce is checked before the `jti` is recorded, so the client's retry after `use_dpop_nonce` is not
    /// mistaken for a replay.
    /// - Parameter path: our endpoint path; `htu` must be the issuer plus this path.
    func authorizationServerProof(_ request: Request, path: String, now: Int64) throws -> DPoP.Verified {
        let proofs = request.headers.values("DPoP")
        guard let proof = proofs.first else { throw OAuthError.invalidProof("DPoP proof required") }
        guard proofs.count == 1 else { throw OAuthError.invalidProof("Send exactly one DPoP header") }
        let verified: DPoP.Verified
        do {
            verified = try DPoP.verify(proof, method: request.method.rawValue, url: issuer + path, now: now)
        } catch {
            throw OAuthError.invalidProof("Invalid DPoP proof: \(error.description)")
        }
        try checkNonce(verified.nonce, now: now)
        guard verified.jti.utf8.count <= Self.maxJTILength else { throw OAuthError.invalidProof("DPoP jti too long") }
        // Valid proofs have iat >= now - 300, so nothing older than iat + 300 needs remembering.
        let fresh = try database.write { connection in
            try connection.execute("DELETE FROM used_jtis WHERE expires_at < ?", [now])
            try connection.execute(
                "INSERT OR IGNORE INTO used_jtis (jti, expires_at) VALUES (?, ?)", [verified.jti, verified.iat + 300])
            return connection.changes > 0
        }
        guard fresh else { throw OAuthError.invalidProof("DPoP proof replayed") }
        return verified
    }

    /// In nonce mode, refuses a proof without the current (or previous) nonce.
    func checkNonce(_ nonce: String?, now: Int64) throws(OAuthError) {
        guard !nonceAccepted(nonce, now: now) else { return }
        throw OAuthError(.useDPoPNonce, "Authorization server requires nonce in DPoP proof")
    }

    /// True outside nonce mode, or when `nonce` is current or in its grace period.
    func nonceAccepted(_ nonce: String?, now: Int64) -> Bool {
        nonces.withLock { state in
            guard state != nil else { return true }
            state?.advance(now: now, make: Self.makeNonce)
            return state?.accepts(nonce) ?? true
        }
    }

    /// The nonce to send in `DPoP-Nonce` right now, or nil when nonces are off (hatk's behaviour).
    ///
    /// The backend adds it to its own responses so that resource calls learn it too.
    public func currentDPoPNonce() -> String? {
        let now = clock().seconds
        return nonces.withLock { state in
            state?.advance(now: now, make: Self.makeNonce)
            return state?.current
        }
    }
}
