import Crypto
import Foundation
import Testing

struct JWTTests {
    struct Claims: Codable, Equatable {
        var iss: String
        var sub: String
        var iat: Int64
        var cnf: [String: String]?
    }

    let claims = Claims(iss: "https://stories.example", sub: "did:plc:abc", iat: 1_700_000_000, cnf: ["jkt": "x"])

    @Test("a signed token verifies, decodes to the same header and claims, and keeps URLs unescaped")
    func signVerifyRoundTrip() throws {
        let key = P256PrivateKey()
        let token = try JWT.sign(header: JWT.Header(typ: "at+jwt", kid: "k1"), claims: claims, key: key)
        #expect(try JWT.verify(token, key: key.publicKey, claims: Claims.self) == claims)
        let decoded = try JWT.decode(token, header: JWT.Header.self, claims: Claims.self)
        #expect(decoded.header == JWT.Header(typ: "at+jwt", kid: "k1"))
        #expect(decoded.signature.count == 64)
        #expect(decoded.signingInput == Array(token.split(separator: ".").prefix(2).joined(separator: ".").utf8))
        let payload = try #require(Base64URL.decode(String(token.split(separator: ".")[1])))
        #expect(String(decoding: payload, as: UTF8.self).contains(#""https://stories.example""#))
    }

    @Test("verification fails for another key, a flipped signature bit, or alg none")
    func verificationFailures() throws {
        let key = P256PrivateKey()
        let token = try JWT.sign(header: JWT.Header(), claims: claims, key: key)
        #expect(throws: CryptoError.self) {
            try JWT.verify(token, key: P256PrivateKey().publicKey, claims: Claims.self)
        }
        #expect(throws: CryptoError.self) {
            try JWT.verify(RawJWS.flippingSignatureBit(token), key: key.publicKey, claims: Claims.self)
        }
        let unsigned = Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + token.split(separator: ".")[1] + "."
        #expect(throws: CryptoError.self) { try JWT.verify(unsigned, key: key.publicKey, claims: Claims.self) }
        let hs256 = try RawJWS.sign(header: #"{"alg":"HS256"}"#, claims: #"{"iss":"a","sub":"b","iat":1}"#, key: key)
        #expect(throws: CryptoError.self) { try JWT.verify(hs256, key: key.publicKey, claims: Claims.self) }
        let critical = try RawJWS.sign(
            header: #"{"alg":"ES256","crit":["exp"]}"#, claims: #"{"iss":"a","sub":"b","iat":1}"#, key: key)
        #expect(throws: CryptoError.self) { try JWT.verify(critical, key: key.publicKey, claims: Claims.self) }
    }

    @Test("sign refuses a header whose alg is not ES256")
    func signRefusesOtherAlgorithms() {
        struct Header: Encodable { var alg = "HS256" }
        #expect(throws: CryptoError.self) { try JWT.sign(header: Header(), claims: claims, key: P256PrivateKey()) }
    }

    @Test("decode refuses anything but three unpadded base64url parts of JSON")
    func decodeRefusesMalformedTokens() throws {
        let token = try JWT.sign(header: JWT.Header(), claims: claims, key: P256PrivateKey())
        let parts = token.split(separator: ".").map(String.init)
        let notJSON = Base64URL.encode(Array("hello".utf8))
        let malformed = [
            "", "abc", "a.b", parts.joined(separator: ".") + ".x", ".\(parts[1]).\(parts[2])",
            "\(parts[0])=.\(parts[1]).\(parts[2])", "\(parts[0]).\(parts[1]).\(parts[2])!",
            "\(notJSON).\(parts[1]).\(parts[2])", "\(parts[0]).\(notJSON).\(parts[2])",
            String(repeating: "a", count: 20_000) + ".b.c",
        ]
        for candidate in malformed {
            #expect(throws: CryptoError.self, "\(candidate.prefix(40))") {
                try JWT.decode(candidate, header: JWT.Header.self, claims: Claims.self)
            }
        }
    }

    @Test("tokens signed here verify in jwcrypto, including one whose r or s needed padding")
    func ourTokensVerifyInJWCrypto() throws {
        // setup
        struct Item: Encodable {
            var jwk: JWK
            var token: String
        }
        let key = P256PrivateKey()
        var tokens = [try JWT.sign(header: JWT.Header(), claims: claims, key: key)]
        for attempt in 0..<5_000 {
            let token = try JWT.sign(
                header: JWT.Header(), claims: Claims(iss: "i", sub: "s", iat: Int64(attempt)), key: key)
            let signature = try JWT.decode(token, header: JWT.Header.self, claims: Claims.self).signature
            if signature[0] == 0 || signature[32] == 0 {
                tokens.append(token)
                break
            }
        }
        try #require(tokens.count == 2, "no padded signature in 5,000 tries")
        // MUT
        let verified = try JWCrypto.json(
            [Claims].self,
            """
            import json, sys
            from jwcrypto import jwk, jws
            out = []
            for item in json.load(sys.stdin):
                token = jws.JWS()
                token.deserialize(item["token"])
                token.verify(jwk.JWK(**item["jwk"]), alg="ES256")
                out.append(json.loads(token.payload))
            print(json.dumps(out))
            """, input: tokens.map { Item(jwk: key.publicKey.jwk, token: $0) })
        // validate
        #expect(verified.count == 2)
        #expect(verified.first == claims)
    }

    @Test("an ES256 token signed by jwcrypto verifies here, and fails once tampered")
    func jwcryptoTokensVerifyHere() throws {
        // setup
        struct Signed: Decodable {
            var jwk: JWK
            var token: String
        }
        let signed = try JWCrypto.json(
            Signed.self,
            """
            import json, sys
            from jwcrypto import jwk, jwt
            key = jwk.JWK.generate(kty="EC", crv="P-256")
            claims = json.load(sys.stdin)
            token = jwt.JWT(header={"alg": "ES256", "typ": "JWT"}, claims=claims)
            token.make_signed_token(key)
            print(json.dumps({"jwk": json.loads(key.export_public()), "token": token.serialize()}))
            """, input: claims)
        // MUT
        let key = try P256PublicKey(jwk: signed.jwk)
        // validate
        #expect(try JWT.verify(signed.token, key: key, claims: Claims.self) == claims)
        #expect(throws: CryptoError.self) {
            try JWT.verify(RawJWS.flippingSignatureBit(signed.token), key: key, claims: Claims.self)
        }
    }
}
