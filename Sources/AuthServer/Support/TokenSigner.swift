import ATProto
import Crypto

/// The ES256 key our access tokens are signed with, and its `kid`: signs at the token endpoint, verifies for the
/// resource checks and revocation, and is published in the JWKS.
struct TokenSigner: Sendable {
    let key: P256PrivateKey
    /// The key's thumbprint, so a future key gets a new one.
    let keyID: String

    init(rawKey: [UInt8]) throws {
        key = try P256PrivateKey(rawRepresentation: rawKey)
        keyID = key.publicKey.jwk.thumbprint
    }

    func sign(_ claims: AccessTokenClaims) throws(CryptoError) -> String {
        try JWT.sign(header: AccessTokenHeader(kid: keyID), claims: claims, key: key)
    }

    /// The header and claims of a token with our signature; nothing else is checked.
    func verify(_ token: String) throws(CryptoError) -> (header: AccessTokenHeader, claims: AccessTokenClaims) {
        try JWT.verify(token, key: key.publicKey, header: AccessTokenHeader.self, claims: AccessTokenClaims.self)
    }

    /// The claims of a token with our signature, whatever its header says.
    func claims(of token: String) throws(CryptoError) -> AccessTokenClaims {
        try JWT.verify(token, key: key.publicKey, claims: AccessTokenClaims.self)
    }

    /// The public key as hatk serves it (`use: sig`, `alg: ES256`, with its `kid`).
    var publicJWK: JWK {
        var jwk = key.publicKey.jwk
        jwk.kid = keyID
        jwk.use = "sig"
        jwk.alg = "ES256"
        return jwk
    }
}
