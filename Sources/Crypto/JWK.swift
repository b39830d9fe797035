/// An EC public JSON Web Key (RFC 7517) as used in DPoP proofs and JWKS documents.
public struct JWK: Codable, Sendable, Equatable {
    public var kty: String
    public var crv: String
    public var x: String
    public var y: String
    public var kid: String?
    public var use: String?
    public var alg: String?

    /// - Parameters:
    ///   - kty: key type, "EC" for P-256.
    ///   - crv: curve, "P-256".
    ///   - x: base64url x coordinate.
    ///   - y: base64url y coordinate.
    ///   - kid: optional key id (for JWKS, e.g. "appview-oauth-key").
    ///   - use: optional intended use ("sig").
    ///   - alg: optional algorithm ("ES256").
    public init(
        kty: String, crv: String, x: String, y: String, kid: String? = nil, use: String? = nil, alg: String? = nil
    ) {
        self.kty = kty
        self.crv = crv
        self.x = x
        self.y = y
        self.kid = kid
        self.use = use
        self.alg = alg
    }

    /// RFC 7638 thumbprint: base64url SHA-256 of the required members in lexicographic order, no whitespace.
    ///
    /// Built by hand rather than with `JSONEncoder`, whose key order and escaping are not part of its contract.
    public var thumbprint: String {
        let canonical = #"{"crv":"\#(crv)","kty":"\#(kty)","x":"\#(x)","y":"\#(y)"}"#
        return Base64URL.encode(SHA256.hash(canonical))
    }
}
