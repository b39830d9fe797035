import Crypto
import Testing

struct P256Tests {
    @Test("a signature verifies with the signer's public key and has 64 bytes")
    func signVerifyRoundTrip() throws {
        // setup
        let key = P256PrivateKey()
        let message = Array("grain stories".utf8)
        // MUT
        let signature = try key.signature(for: message)
        // validate
        #expect(signature.count == 64)
        #expect(key.publicKey.isValidSignature(signature, for: message))
        #expect(key.publicKey.isValidSignature(try key.signature(for: []), for: []))
    }

    @Test("a flipped bit in the signature or message, or another key, fails verification")
    func tamperingFails() throws {
        let key = P256PrivateKey()
        let message = Array("grain stories".utf8)
        let signature = try key.signature(for: message)
        for index in [0, 31, 32, 63] {
            var flipped = signature
            flipped[index] ^= 0x80
            #expect(!key.publicKey.isValidSignature(flipped, for: message))
        }
        #expect(!key.publicKey.isValidSignature(signature, for: Array("grain storieS".utf8)))
        #expect(!P256PrivateKey().publicKey.isValidSignature(signature, for: message))
    }

    @Test("signatures of the wrong length, all zeros or DER-encoded are rejected without a crash")
    func malformedSignatures() throws {
        let key = P256PrivateKey()
        let message = Array("m".utf8)
        let signature = try key.signature(for: message)
        #expect(!key.publicKey.isValidSignature([], for: message))
        #expect(!key.publicKey.isValidSignature(Array(signature.prefix(63)), for: message))
        #expect(!key.publicKey.isValidSignature(signature + [0], for: message))
        #expect(!key.publicKey.isValidSignature([UInt8](repeating: 0, count: 64), for: message))
        #expect(!key.publicKey.isValidSignature([UInt8](repeating: 0xFF, count: 64), for: message))
    }

    @Test("an r or s with a leading zero byte is left-padded to 32 bytes and still verifies")
    func paddedSignatureVerifies() throws {
        // About 1 signature in 128 has a leading zero in r or s; 5,000 tries miss with probability e^-39.
        let key = P256PrivateKey()
        let message = Array("padding".utf8)
        var padded: [UInt8]? = nil
        for _ in 0..<5_000 {
            let signature = try key.signature(for: message)
            if signature[0] == 0 || signature[32] == 0 {
                padded = signature
                break
            }
        }
        let signature = try #require(padded)
        #expect(signature.count == 64)
        #expect(key.publicKey.isValidSignature(signature, for: message))
    }

    @Test("the raw private scalar round-trips and yields the same public key")
    func rawRepresentationRoundTrip() throws {
        let key = P256PrivateKey()
        let restored = try P256PrivateKey(rawRepresentation: key.rawRepresentation)
        #expect(key.rawRepresentation.count == 32)
        #expect(restored.publicKey == key.publicKey)
        #expect(key.publicKey.isValidSignature(try restored.signature(for: [1, 2, 3]), for: [1, 2, 3]))
    }

    @Test("the private scalar 1 gives the curve's generator point")
    func scalarOneIsGenerator() throws {
        let key = try P256PrivateKey(rawRepresentation: [UInt8](repeating: 0, count: 31) + [1])
        #expect(Hex.encode(key.publicKey.x) == "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296")
        #expect(Hex.encode(key.publicKey.y) == "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")
    }

    @Test("private scalars of zero, the group order or the wrong length are refused")
    func badScalarsRefused() {
        let order = Array(hex: "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        #expect(throws: CryptoError.self) { try P256PrivateKey(rawRepresentation: [UInt8](repeating: 0, count: 32)) }
        #expect(throws: CryptoError.self) { try P256PrivateKey(rawRepresentation: order) }
        #expect(throws: CryptoError.self) { try P256PrivateKey(rawRepresentation: [UInt8](repeating: 1, count: 31)) }
    }

    @Test("a point off the curve or with coordinates of the wrong size is refused")
    func badPointsRefused() throws {
        let key = P256PrivateKey().publicKey
        var y = key.y
        y[31] ^= 1
        #expect(throws: CryptoError.self) { try P256PublicKey(x: key.x, y: y) }
        #expect(throws: CryptoError.self) { try P256PublicKey(x: Array(key.x.dropFirst()), y: key.y) }
        #expect(throws: CryptoError.self) {
            try P256PublicKey(x: [UInt8](repeating: 0, count: 32), y: [UInt8](repeating: 0, count: 32))
        }
        #expect(try P256PublicKey(x: key.x, y: key.y) == key)
    }

    @Test("private keys do not print their scalar")
    func privateKeyDescriptionIsRedacted() {
        let key = P256PrivateKey()
        #expect(!String(describing: key).contains(Hex.encode(key.rawRepresentation)))
        #expect(!String(describing: key).contains(Base64URL.encode(key.rawRepresentation)))
    }

    @Test("one key signs and verifies from many tasks at once")
    func concurrentUse() async throws {
        let key = P256PrivateKey()
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<64 {
                group.addTask {
                    let message = Array("message \(index)".utf8)
                    return key.publicKey.isValidSignature(try key.signature(for: message), for: message)
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 64 && results.allSatisfy { $0 })
    }
}
