import Crypto

/// Hand-built compact JWS for tests that need headers or claims our own `JWT.sign` would refuse to produce.
enum RawJWS {
    static func sign(header: String, claims: String, key: P256PrivateKey) throws -> String {
        let input = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        return input + "." + Base64URL.encode(try key.signature(for: Array(input.utf8)))
    }

    /// The token with one bit of its signature flipped.
    static func flippingSignatureBit(_ token: String) -> String {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var signature = Base64URL.decode(parts[2])!
        signature[10] ^= 0x01
        return parts[0] + "." + parts[1] + "." + Base64URL.encode(signature)
    }
}
