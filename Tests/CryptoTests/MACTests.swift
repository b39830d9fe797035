import Crypto
import Testing

struct MACTests {
    @Test("HMAC-SHA256 matches RFC 4231 test case 2")
    func rfc4231Case2() {
        let mac = HMACSHA256.authenticationCode(
            for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8))
        #expect(Hex.encode(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test("HMAC-SHA256 with an empty key and message matches the known value")
    func emptyInputs() {
        // python3 -c "import hmac,hashlib;print(hmac.new(b'',b'',hashlib.sha256).hexdigest())"
        #expect(
            Hex.encode(HMACSHA256.authenticationCode(for: [], key: []))
                == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }

    @Test("HKDF-SHA256 matches RFC 5869 test case 1")
    func rfc5869Case1() {
        let okm = HKDFSHA256.deriveKey(
            inputKeyMaterial: [UInt8](repeating: 0x0b, count: 22), salt: Array(hex: "000102030405060708090a0b0c"),
            info: Array(hex: "f0f1f2f3f4f5f6f7f8f9"), outputByteCount: 42)
        #expect(
            Hex.encode(okm) == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
    }

    @Test("constant-time equality compares content and length")
    func constantTimeEquality() {
        #expect(constantTimeEquals([1, 2, 3], [1, 2, 3]))
        #expect(constantTimeEquals([], []))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2, 4]))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2]))
        #expect(!constantTimeEquals([], [0]))
    }
}
