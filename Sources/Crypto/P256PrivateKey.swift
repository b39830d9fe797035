import COpenSSL

/// A P-256 key pair for ES256: DPoP keys and the authorization server's token-signing key.
///
/// Holds only bytes, so it is a plain `Sendable` value; each signature builds and frees its own libcrypto key.
public struct P256PrivateKey: Sendable, CustomStringConvertible {
    private let scalar: [UInt8]
    /// The public half, derived once.
    public let publicKey: P256PublicKey

    /// A fresh random key. Traps only if libcrypto cannot generate a key, which leaves nothing safe to do.
    public init() {
        do {
            let generated = try P256EVP.generate()
            scalar = generated.scalar
            publicKey = P256PublicKey(validatedPoint: generated.point)
        } catch {
            preconditionFailure("P-256 key generation failed: \(error)")
        }
    }

    /// Restores a key from its 32-byte private scalar (as stored by ``rawRepresentation``).
    /// - Parameter rawRepresentation: big-endian scalar, 1 ≤ d < n.
    public init(rawRepresentation: [UInt8]) throws(CryptoError) {
        let point = try P256EVP.publicPoint(forScalar: rawRepresentation)
        scalar = rawRepresentation
        publicKey = P256PublicKey(validatedPoint: point)
    }

    /// The 32-byte private scalar, for storage. Encrypt it at rest.
    public var rawRepresentation: [UInt8] { scalar }

    /// Keeps the scalar out of logs and string interpolation.
    public var description: String { "P256PrivateKey(public: \(publicKey.jwk.thumbprint))" }

    /// An ES256 signature: SHA-256 then ECDSA, as raw `r || s` (64 bytes, each half left-padded to 32 bytes).
    public func signature(for message: [UInt8]) throws(CryptoError) -> [UInt8] {
        let der = try P256EVP.withKey(publicPoint: publicKey.point, privateScalar: scalar) {
            key throws(CryptoError) -> [UInt8] in
            guard let context = EVP_MD_CTX_new() else { throw .openSSL("EVP_MD_CTX_new failed") }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else {
                throw .openSSL("EVP_DigestSignInit failed")
            }
            // ECDSA P-256 DER is at most 72 bytes; ask anyway rather than hard-code it.
            var length = 0
            let sized = message.withUnsafeBufferPointer {
                EVP_DigestSign(context, nil, &length, $0.baseAddress, $0.count)
            }
            guard sized == 1 else { throw .openSSL("EVP_DigestSign (size) failed") }
            var der = [UInt8](repeating: 0, count: length)
            let signed = message.withUnsafeBufferPointer { input in
                der.withUnsafeMutableBufferPointer { output in
                    EVP_DigestSign(context, output.baseAddress, &length, input.baseAddress, input.count)
                }
            }
            guard signed == 1 else { throw .openSSL("EVP_DigestSign failed") }
            return Array(der.prefix(length))
        }
        return try ECDSASignature.raw(fromDER: der)
    }
}
