import Crypto
import Foundation
import Testing

struct EncodingTests {
    /// SHA-256 matches the FIPS 180-2 "abc" vector.
    @Test("SHA-256 of abc matches the published vector")
    func sha256Vector() {
        #expect(Hex.encode(SHA256.hash("abc")) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("base32 matches RFC 4648 vectors, lower case and unpadded, and round-trips")
    func base32Vectors() {
        let vectors = ["": "", "f": "my", "fo": "mzxq", "foo": "mzxw6", "foob": "mzxw6yq", "fooba": "mzxw6ytb", "foobar": "mzxw6ytboi"]
        for (plain, encoded) in vectors {
            #expect(Base32.encode(Array(plain.utf8)) == encoded)
            #expect(Base32.decode(encoded) == Array(plain.utf8))
        }
        #expect(Base32.decode("mzxw6yt!") == nil)
    }

    @Test("base64url has no padding and no + or /, and decodes with or without padding")
    func base64url() {
        let bytes: [UInt8] = [0xfb, 0xff, 0xbf, 0x00, 0x10]
        let encoded = Base64URL.encode(bytes)
        #expect(encoded == "-_-_ABA")
        #expect(Base64URL.decode(encoded) == bytes)
        #expect(Base64URL.decode("-_-_ABA=") == bytes)
        #expect(Base64URL.decode("not base64!") == nil)
    }

    @Test("random tokens are distinct and of the requested length")
    func randomTokens() {
        let tokens = Set((0..<100).map { _ in SecureRandom.token(byteCount: 32) })
        #expect(tokens.count == 100)
        #expect(tokens.allSatisfy { $0.count == 43 })
    }
}

struct Base64URLAgreementTests {
    /// The hand-written encoder must agree with Foundation's base64 for every length and byte value.
    @Test("base64url agrees with Foundation's base64 (translated) for lengths 0 to 200 of random bytes")
    func agreesWithFoundation() {
        for length in 0...200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255) }
            let expected = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == expected, "length \(length)")
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
    }
}
