/// RFC 9449 DPoP proofs: building them (OAuth client) and checking them (authorization and resource server).
public enum DPoP {
    /// The proof's JOSE header.
    public struct Header: Codable, Sendable {
        public var typ: String
        public var alg: String
        public var jwk: JWK

        /// - Parameter jwk: the public key whose private half signs the proof.
        public init(jwk: JWK) {
            self.typ = "dpop+jwt"
            self.alg = "ES256"
            self.jwk = jwk
        }
    }

    /// The proof's claims.
    public struct Claims: Codable, Sendable, Equatable {
        public var jti: String
        public var htm: String
        public var htu: String
        public var iat: Int64
        public var ath: String?
        public var nonce: String?

        /// - Parameters:
        ///   - jti: unique id of this proof, for replay detection.
        ///   - htm: HTTP method of the request.
        ///   - htu: request URL without query and fragment.
        ///   - iat: issue time, seconds since 1970.
        ///   - ath: base64url SHA-256 of the access token, on resource requests.
        ///   - nonce: the server's last `DPoP-Nonce`, when it demands one.
        public init(jti: String, htm: String, htu: String, iat: Int64, ath: String? = nil, nonce: String? = nil) {
            self.jti = jti
            self.htm = htm
            self.htu = htu
            self.iat = iat
            self.ath = ath
            self.nonce = nonce
        }
    }

    /// Builds a signed proof for one request.
    /// - Parameters:
    ///   - key: the client's DPoP key (keep the same one for PAR, token and every later call).
    ///   - method: HTTP method, e.g. "POST".
    ///   - url: the request URL; its query and fragment are dropped for `htu`.
    ///   - now: current time in seconds since 1970 (injected so callers control the clock).
    ///   - accessToken: when given, `ath` is its hash.
    ///   - nonce: the server-provided nonce, if any.
    public static func proof(
        key: P256PrivateKey, method: String, url: String, now: Int64, accessToken: String? = nil, nonce: String? = nil
    ) throws(CryptoError) -> String {
        let claims = Claims(
            jti: SecureRandom.token(byteCount: 16), htm: method, htu: targetURI(url), iat: now,
            ath: accessToken.map(accessTokenHash), nonce: nonce)
        return try JWT.sign(header: Header(jwk: key.publicKey.jwk), claims: claims, key: key)
    }

    /// The `ath` value for an access token: base64url SHA-256 of its ASCII bytes.
    public static func accessTokenHash(_ token: String) -> String {
        Base64URL.encode(SHA256.hash(token))
    }

    /// `url` without its query and fragment (RFC 9449 §4.2 `htu`).
    public static func targetURI(_ url: String) -> String {
        guard let cut = url.firstIndex(where: { $0 == "?" || $0 == "#" }) else { return url }
        return String(url[..<cut])
    }

    /// The form hatk compares `htu` in: no query or fragment, no trailing slash, lower case.
    static func comparableURI(_ url: String) -> String {
        var target = targetURI(url)
        if target.hasSuffix("/") { target.removeLast() }
        return target.lowercased()
    }
}
