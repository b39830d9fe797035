extension DPoP {
    /// What a verified proof tells the server. Replay (`jti`) and nonce policy are the caller's, using these values.
    public struct Verified: Sendable, Equatable {
        /// RFC 7638 thumbprint of the proof key, to compare with `cnf.jkt` or the key bound at PAR.
        public var jkt: String
        public var jti: String
        public var iat: Int64
        public var nonce: String?

        public init(jkt: String, jti: String, iat: Int64, nonce: String?) {
            self.jkt = jkt
            self.jti = jti
            self.iat = iat
            self.nonce = nonce
        }
    }

    /// Why a proof was refused.
    public struct ProofError: Error, Sendable, CustomStringConvertible, Equatable {
        /// The check that failed; the raw value is the message.
        public enum Reason: String, Sendable, Equatable, CaseIterable {
            case malformed = "DPoP proof is not a compact JWS with JSON header and claims"
            case typ = "DPoP proof typ must be dpop+jwt"
            case alg = "DPoP proof alg must be ES256"
            case missingJWK = "DPoP proof header has no jwk"
            case privateKeyInJWK = "jwk must not contain a private key"
            case invalidJWK = "jwk is not a P-256 public key"
            case badSignature = "bad signature"
            case missingJTI = "missing jti"
            case missingHTM = "missing htm"
            case htmMismatch = "htm does not match"
            case missingHTU = "missing htu"
            case htuMismatch = "htu does not match"
            case missingIAT = "iat missing or not a number"
            case iatOutsideWindow = "iat outside the allowed window"
            case missingATH = "missing ath for the access token"
            case athMismatch = "ath does not match the access token"
        }

        public let reason: Reason

        public init(_ reason: Reason) {
            self.reason = reason
        }

        public var description: String { reason.rawValue }
    }

    /// Checks one proof the way hatk does, plus RFC 9449's ban on private keys in the header.
    ///
    /// Order: structure, `typ`, `alg`, `jwk`, signature, then the claims, so nothing in the claims is trusted
    /// before the signature holds.
    /// - Parameters:
    ///   - proof: the `DPoP` header value.
    ///   - method: the request's HTTP method (compared exactly).
    ///   - url: the request URL as the server sees it; compared case-insensitively without query, fragment and a
    ///     trailing slash.
    ///   - now: current time in seconds since 1970.
    ///   - maxAge: oldest accepted `iat`, in seconds before `now`.
    ///   - maxSkew: newest accepted `iat`, in seconds after `now`.
    ///   - accessToken: on resource requests, the token from `Authorization: DPoP`; `ath` must then be present and
    ///     match.
    public static func verify(
        _ proof: String, method: String, url: String, now: Int64, maxAge: Int64 = 300, maxSkew: Int64 = 60,
        accessToken: String? = nil
    ) throws(ProofError) -> Verified {
        let parts: JWT.Parts
        let header: ProofHeader
        let claims: ProofClaims
        do {
            parts = try JWT.split(proof)
            header = try JWT.decodeJSON(ProofHeader.self, from: parts.header, what: "header")
            claims = try JWT.decodeJSON(ProofClaims.self, from: parts.claims, what: "claims")
        } catch {
            throw ProofError(.malformed)
        }
        guard header.typ == "dpop+jwt" else { throw ProofError(.typ) }
        guard header.alg == "ES256" else { throw ProofError(.alg) }
        guard let jwk = header.jwk else { throw ProofError(.missingJWK) }
        guard jwk.d == nil else { throw ProofError(.privateKeyInJWK) }
        guard let kty = jwk.kty, let crv = jwk.crv, let x = jwk.x, let y = jwk.y,
            let key = try? P256PublicKey(jwk: JWK(kty: kty, crv: crv, x: x, y: y))
        else { throw ProofError(.invalidJWK) }
        guard key.isValidSignature(parts.signature, for: parts.signingInput) else { throw ProofError(.badSignature) }

        guard let jti = claims.jti, !jti.isEmpty else { throw ProofError(.missingJTI) }
        guard let htm = claims.htm else { throw ProofError(.missingHTM) }
        guard htm == method else { throw ProofError(.htmMismatch) }
        guard let htu = claims.htu else { throw ProofError(.missingHTU) }
        guard comparableURI(htu) == comparableURI(url) else { throw ProofError(.htuMismatch) }
        guard let iat = claims.iat else { throw ProofError(.missingIAT) }
        guard iat >= now - maxAge, iat <= now + maxSkew else { throw ProofError(.iatOutsideWindow) }
        if let accessToken {
            guard let ath = claims.ath else { throw ProofError(.missingATH) }
            guard constantTimeEquals(Array(ath.utf8), Array(accessTokenHash(accessToken).utf8)) else {
                throw ProofError(.athMismatch)
            }
        }
        return Verified(jkt: key.jwk.thumbprint, jti: jti, iat: iat, nonce: claims.nonce)
    }

    /// The header as sent, every member optional so each absence maps to its own error.
    private struct ProofHeader: Decodable {
        struct Key: Decodable {
            var kty: String?
            var crv: String?
            var x: String?
            var y: String?
            var d: String?
        }
        var typ: String?
        var alg: String?
        var jwk: Key?
    }

    private struct ProofClaims: Decodable {
        var jti: String?
        var htm: String?
        var htu: String?
        var iat: Int64?
        var ath: String?
        var nonce: String?

        enum CodingKeys: String, CodingKey {
            case jti, htm, htu, iat, ath, nonce
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            jti = try container.decodeIfPresent(String.self, forKey: .jti)
            htm = try container.decodeIfPresent(String.self, forKey: .htm)
            htu = try container.decodeIfPresent(String.self, forKey: .htu)
            ath = try container.decodeIfPresent(String.self, forKey: .ath)
            nonce = try container.decodeIfPresent(String.self, forKey: .nonce)
            // JavaScript clients may send a fractional iat; accept it rounded down, as hatk's numeric compare would.
            if let whole = try? container.decodeIfPresent(Int64.self, forKey: .iat) {
                iat = whole
            } else if let seconds = try? container.decodeIfPresent(Double.self, forKey: .iat), seconds.isFinite,
                abs(seconds) < 1e15
            {
                iat = Int64(seconds.rounded(.down))
            } else {
                iat = nil
            }
        }
    }
}
