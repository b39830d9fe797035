import Crypto
import Foundation
import Testing

struct JWKTests {
    @Test("the JWK has kty EC, crv P-256 and 43-character coordinates, and round-trips to the same key")
    func jwkShape() throws {
        let key = P256PrivateKey().publicKey
        let jwk = key.jwk
        #expect(jwk.kty == "EC" && jwk.crv == "P-256")
        #expect(jwk.x.count == 43 && jwk.y.count == 43)
        #expect(jwk.kid == nil && jwk.use == nil && jwk.alg == nil)
        #expect(try P256PublicKey(jwk: jwk) == key)
        let json = String(decoding: try JSONEncoder().encode(jwk), as: UTF8.self)
        #expect(!json.contains("kid") && !json.contains("null"))
    }

    @Test("the RFC 7638 thumbprint matches jwcrypto's for several keys")
    func thumbprintMatchesJWCrypto() throws {
        // setup
        let jwks = (0..<3).map { _ in P256PrivateKey().publicKey.jwk }
        // MUT
        let theirs = try JWCrypto.json(
            [String].self,
            """
            import json, sys
            from jwcrypto import jwk
            print(json.dumps([jwk.JWK(**k).thumbprint() for k in json.load(sys.stdin)]))
            """, input: jwks)
        // validate
        #expect(theirs == jwks.map(\.thumbprint))
    }

    @Test("the thumbprint ignores kid, use and alg")
    func thumbprintIgnoresOptionalMembers() {
        let jwk = P256PrivateKey().publicKey.jwk
        var labelled = jwk
        labelled.kid = "appview-oauth-key"
        labelled.use = "sig"
        labelled.alg = "ES256"
        #expect(labelled.thumbprint == jwk.thumbprint)
        #expect(jwk.thumbprint.count == 43)
    }

    @Test("JWKs with another curve or key type, padding or non-canonical base64url are refused")
    func badJWKsRefused() {
        let jwk = P256PrivateKey().publicKey.jwk
        var other = jwk
        other.crv = "P-384"
        #expect(throws: CryptoError.self) { try P256PublicKey(jwk: other) }
        other = jwk
        other.kty = "RSA"
        #expect(throws: CryptoError.self) { try P256PublicKey(jwk: other) }
        other = jwk
        other.x += "="
        #expect(throws: CryptoError.self) { try P256PublicKey(jwk: other) }
        other = jwk
        other.y = String(jwk.y.dropLast())
        #expect(throws: CryptoError.self) { try P256PublicKey(jwk: other) }
        // 43 characters carry 258 bits; a last character with its two spare bits set decodes to the same bytes.
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        let last = alphabet.firstIndex(of: jwk.x.last!)!
        other = jwk
        other.x = String(jwk.x.dropLast()) + String(alphabet[last | 1])
        #expect(throws: CryptoError.self) { try P256PublicKey(jwk: other) }
    }
}
