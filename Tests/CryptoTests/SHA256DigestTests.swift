import Testing

@testable import Crypto

struct SHA256DigestTests {
    @Test("the digest value holds the same 32 bytes as hash(_:), its hex is Hex.encode of them, and the hex reads back")
    func digestMatchesHash() throws {
        for text in ["", "abc", "kTKH4iGf1P0RlF30vL58FxB_rR9tHXA7YTuPMUDZUJo", String(repeating: "é", count: 300)] {
            let digest = SHA256.digest(text)
            #expect(digest.hex == Hex.encode(SHA256.hash(text)))
            #expect(SHA256.Digest(hex: digest.hex) == digest)
        }
        #expect(SHA256.digest("abc").hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "FIPS 180-2's example")
        #expect(SHA256.digest("a") != SHA256.digest("b"))
        #expect(Set([SHA256.digest("a"), SHA256.digest("a"), SHA256.digest("b")]).count == 2)
    }

    @Test(
        "only 64 lowercase hex digits read as a digest",
        arguments: ["", "abc", String(repeating: "A", count: 64), String(repeating: "g", count: 64), String(repeating: "0", count: 65)])
    func malformedHex(_ text: String) {
        #expect(SHA256.Digest(hex: text) == nil)
    }
}
