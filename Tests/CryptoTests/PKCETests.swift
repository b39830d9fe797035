import Crypto
import Testing

struct PKCETests {
    @Test("the S256 challenge matches RFC 7636 appendix B")
    func rfc7636Vector() {
        #expect(
            PKCE.challenge(for: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
                == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(
            PKCE.verify(
                verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",
                challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"))
    }

    @Test("verifiers are 43 valid characters, distinct, and verify against their own challenge only")
    func verifiers() {
        let first = PKCE.makeVerifier()
        let second = PKCE.makeVerifier()
        #expect(first.count == 43 && first != second)
        #expect(PKCE.isValidVerifier(first))
        #expect(PKCE.verify(verifier: first, challenge: PKCE.challenge(for: first)))
        #expect(!PKCE.verify(verifier: second, challenge: PKCE.challenge(for: first)))
    }

    @Test("verifiers shorter than 43, longer than 128 or with other characters are refused")
    func badVerifiers() {
        let short = String(repeating: "a", count: 42)
        let long = String(repeating: "a", count: 129)
        let spaced = String(repeating: "a", count: 42) + " "
        #expect(!PKCE.isValidVerifier(short) && !PKCE.isValidVerifier(long) && !PKCE.isValidVerifier(spaced))
        #expect(PKCE.isValidVerifier(String(repeating: "a", count: 128)) && PKCE.isValidVerifier("-._~" + short))
        #expect(!PKCE.verify(verifier: short, challenge: PKCE.challenge(for: short)))
    }
}
