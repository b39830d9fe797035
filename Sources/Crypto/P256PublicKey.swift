import COpenSSL

/// A validated P-256 public key for ES256 verification.
public struct P256PublicKey: Sendable, Equatable, CustomStringConvertible {
    /// Uncompressed SEC1 point `04 || x || y`, always checked to be on the curve.
    let point: [UInt8]

    init(validatedPoint: [UInt8]) {
        point = validatedPoint
    }

    /// A key from its affine coordinates.
    /// - Parameters:
    ///   - x: 32 bytes, big-endian.
    ///   - y: 32 bytes, big-endian.
    /// - Throws: if either coordinate is not 32 bytes or the point is not on the curve.
    public init(x: [UInt8], y: [UInt8]) throws(CryptoError) {
        guard x.count == 32, y.count == 32 else {
            throw CryptoError("P-256 coordinates are 32 bytes each, got \(x.count) and \(y.count)")
        }
        let candidate = [0x04] + x + y
        try P256EVP.validatePublicPoint(candidate)
        point = candidate
    }

    /// A key from a JWK: `kty` EC, `crv` P-256, and canonical base64url `x` and `y` of 32 bytes each.
    ///
    /// Non-canonical encodings (padding, stray low bits) are refused so that one key has exactly one thumbprint.
    public init(jwk: JWK) throws(CryptoError) {
        guard jwk.kty == "EC", jwk.crv == "P-256" else {
            throw CryptoError("JWK is not an EC P-256 key (kty \(jwk.kty), crv \(jwk.crv))")
        }
        guard let x = Base64URL.decode(jwk.x), let y = Base64URL.decode(jwk.y),
            Base64URL.encode(x) == jwk.x, Base64URL.encode(y) == jwk.y
        else { throw CryptoError("JWK x and y must be unpadded base64url") }
        try self.init(x: x, y: y)
    }

    /// The x coordinate (32 bytes).
    public var x: [UInt8] { Array(point[1..<33]) }
    /// The y coordinate (32 bytes).
    public var y: [UInt8] { Array(point[33..<65]) }

    /// The bare public JWK `{"kty":"EC","crv":"P-256","x","y"}`; set `kid`, `use` or `alg` on the copy as needed.
    public var jwk: JWK {
        JWK(kty: "EC", crv: "P-256", x: Base64URL.encode(x), y: Base64URL.encode(y))
    }

    public var description: String { "P256PublicKey(\(jwk.thumbprint))" }

    /// Checks an ES256 signature in raw `r || s` form over `message`. Any other length is simply invalid.
    public func isValidSignature(_ rawSignature: [UInt8], for message: [UInt8]) -> Bool {
        guard let der = ECDSASignature.der(fromRaw: rawSignature) else { return false }
        let valid: Bool
        do {
            valid = try P256EVP.withKey(publicPoint: point) { key throws(CryptoError) -> Bool in
                guard let context = EVP_MD_CTX_new() else { throw .openSSL("EVP_MD_CTX_new failed") }
                defer { EVP_MD_CTX_free(context) }
                guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else {
                    throw .openSSL("EVP_DigestVerifyInit failed")
                }
                let result = message.withUnsafeBufferPointer { input in
                    der.withUnsafeBufferPointer { signature in
                        EVP_DigestVerify(
                            context, signature.baseAddress, signature.count, input.baseAddress, input.count)
                    }
                }
                return result == 1
            }
        } catch {
            valid = false
        }
        // A rejected signature leaves entries in the thread's error queue; they are an answer, not a fault.
        if !valid { OpenSSLErrors.discard() }
        return valid
    }
}
