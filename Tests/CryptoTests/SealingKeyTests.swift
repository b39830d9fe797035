import Crypto
import Testing

struct SealingKeyTests {
    let key = SealingKey.random()
    let secret = Array("refresh-token-0123456789".utf8)

    @Test("sealed values open with the same key and context, including empty ones")
    func roundTrip() throws {
        let sealed = try key.seal(secret, context: "session-token:1")
        #expect(sealed.count == 12 + secret.count + 16)
        #expect(try key.open(sealed, context: "session-token:1") == secret)
        #expect(try key.open(try key.seal([], context: ""), context: "") == [])
        let restored = try SealingKey(rawRepresentation: key.rawRepresentation)
        #expect(try restored.open(sealed, context: "session-token:1") == secret)
    }

    @Test("sealing the same value twice gives different output (fresh nonces)")
    func freshNonces() throws {
        #expect(try key.seal(secret, context: "c") != key.seal(secret, context: "c"))
    }

    @Test("a wrong context, wrong key, truncation or any flipped bit fails to open")
    func tamperingFails() throws {
        let sealed = try key.seal(secret, context: "session-token:1")
        #expect(throws: CryptoError.self) { try key.open(sealed, context: "session-token:2") }
        #expect(throws: CryptoError.self) { try SealingKey.random().open(sealed, context: "session-token:1") }
        #expect(throws: CryptoError.self) { try key.open(Array(sealed.dropLast()), context: "session-token:1") }
        #expect(throws: CryptoError.self) { try key.open(Array(sealed.prefix(27)), context: "session-token:1") }
        #expect(throws: CryptoError.self) { try key.open([], context: "session-token:1") }
        for index in [0, 11, 12, sealed.count - 17, sealed.count - 1] {
            var tampered = sealed
            tampered[index] ^= 0x04
            #expect(throws: CryptoError.self, "byte \(index)") { try key.open(tampered, context: "session-token:1") }
        }
    }

    @Test("keys must be exactly 32 bytes and never print their bytes")
    func keySize() {
        #expect(throws: CryptoError.self) { try SealingKey(rawRepresentation: [UInt8](repeating: 1, count: 16)) }
        #expect(throws: CryptoError.self) { try SealingKey(rawRepresentation: [UInt8](repeating: 1, count: 33)) }
        #expect(key.rawRepresentation.count == 32)
        #expect(String(describing: key) == "SealingKey(redacted)")
    }
}
