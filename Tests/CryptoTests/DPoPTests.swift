import Crypto
import Foundation
import Testing

struct DPoPTests {
    let key = P256PrivateKey()
    let now: Int64 = 1_700_000_000
    let url = "https://stories.example/oauth/token"

    /// A proof signed by `key` from literal JSON, for the failure paths `DPoP.proof` cannot produce.
    func rawProof(header: String? = nil, claims: String) throws -> String {
        let jwk = String(decoding: try JSONEncoder().encode(key.publicKey.jwk), as: UTF8.self)
        return try RawJWS.sign(
            header: header ?? #"{"typ":"dpop+jwt","alg":"ES256","jwk":\#(jwk)}"#, claims: claims, key: key)
    }

    func expectFailure(
        _ reason: DPoP.ProofError.Reason, _ proof: String, method: String = "POST",
        url: String? = nil, accessToken: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(throws: DPoP.ProofError(reason), sourceLocation: sourceLocation) {
            try DPoP.verify(proof, method: method, url: url ?? self.url, now: now, accessToken: accessToken)
        }
    }

    @Test("a proof carries typ dpop+jwt, ES256, the public jwk and the request's claims")
    func proofShape() throws {
        // MUT
        let proof = try DPoP.proof(
            key: key, method: "GET", url: "https://stories.example/xrpc/x?limit=5#top", now: now,
            accessToken: "token-abc", nonce: "n1")
        // validate
        let decoded = try JWT.decode(proof, header: DPoP.Header.self, claims: DPoP.Claims.self)
        #expect(decoded.header.typ == "dpop+jwt" && decoded.header.alg == "ES256")
        #expect(decoded.header.jwk == key.publicKey.jwk)
        #expect(decoded.claims.htm == "GET")
        #expect(decoded.claims.htu == "https://stories.example/xrpc/x")
        #expect(decoded.claims.iat == now)
        #expect(decoded.claims.ath == DPoP.accessTokenHash("token-abc"))
        #expect(decoded.claims.ath == Base64URL.encode(SHA256.hash("token-abc")))
        #expect(decoded.claims.nonce == "n1")
        #expect((Base64URL.decode(decoded.claims.jti)?.count ?? 0) >= 16)
        #expect(key.publicKey.isValidSignature(decoded.signature, for: decoded.signingInput))
    }

    @Test("without an access token or nonce the proof has no ath or nonce member, and jti differs per proof")
    func optionalClaimsOmitted() throws {
        let proof = try DPoP.proof(key: key, method: "POST", url: url, now: now)
        let payload = try #require(Base64URL.decode(String(proof.split(separator: ".")[1])))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
        #expect(Set(json.keys) == ["jti", "htm", "htu", "iat"])
        let other = try DPoP.proof(key: key, method: "POST", url: url, now: now)
        let claims = { (p: String) in try JWT.decode(p, header: DPoP.Header.self, claims: DPoP.Claims.self).claims.jti }
        #expect(try claims(proof) != claims(other))
    }

    @Test("a valid proof verifies and reports the key thumbprint, jti, iat and nonce")
    func verifyAcceptsValidProof() throws {
        let proof = try DPoP.proof(key: key, method: "POST", url: url, now: now, nonce: "abc")
        let verified = try DPoP.verify(proof, method: "POST", url: url, now: now)
        let claims = try JWT.decode(proof, header: DPoP.Header.self, claims: DPoP.Claims.self).claims
        #expect(verified == DPoP.Verified(jkt: key.publicKey.jwk.thumbprint, jti: claims.jti, iat: now, nonce: "abc"))
    }

    @Test("htu matches despite query, fragment, trailing slash and case differences")
    func htuNormalisation() throws {
        let proof = try DPoP.proof(key: key, method: "GET", url: "https://Stories.Example/xrpc/Foo/?a=1#f", now: now)
        for requestURL in [
            "https://stories.example/xrpc/foo", "https://stories.example/xrpc/foo/", "HTTPS://STORIES.EXAMPLE/XRPC/FOO",
            "https://stories.example/xrpc/foo?cursor=2", "https://stories.example/xrpc/foo#x",
        ] {
            #expect(throws: Never.self, "\(requestURL)") {
                try DPoP.verify(proof, method: "GET", url: requestURL, now: now)
            }
        }
        expectFailure(.htuMismatch, proof, method: "GET", url: "https://stories.example/xrpc/bar")
        expectFailure(.htuMismatch, proof, method: "GET", url: "https://stories.example/xrpc/foo/bar")
        expectFailure(.htuMismatch, proof, method: "GET", url: "http://stories.example/xrpc/foo")
        expectFailure(.htuMismatch, proof, method: "GET", url: "https://other.example/xrpc/foo")
    }

    @Test("htm must equal the request method exactly")
    func htmMismatch() throws {
        let proof = try DPoP.proof(key: key, method: "POST", url: url, now: now)
        expectFailure(.htmMismatch, proof, method: "GET")
        expectFailure(.htmMismatch, proof, method: "post")
    }

    @Test("iat is accepted from now-300 s to now+60 s and refused outside")
    func iatWindow() throws {
        for offset: Int64 in [-300, 0, 60] {
            let proof = try DPoP.proof(key: key, method: "POST", url: url, now: now + offset)
            #expect(try DPoP.verify(proof, method: "POST", url: url, now: now).iat == now + offset)
        }
        for offset: Int64 in [-301, 61, -100_000] {
            expectFailure(.iatOutsideWindow, try DPoP.proof(key: key, method: "POST", url: url, now: now + offset))
        }
        let fractional = try rawProof(claims: #"{"jti":"j","htm":"POST","htu":"\#(url)","iat":\#(now).7}"#)
        #expect(try DPoP.verify(fractional, method: "POST", url: url, now: now).iat == now)
    }

    @Test("with an access token, ath must be present and equal its hash")
    func athChecks() throws {
        let bound = try DPoP.proof(key: key, method: "GET", url: url, now: now, accessToken: "token-1")
        #expect(throws: Never.self) {
            try DPoP.verify(bound, method: "GET", url: url, now: now, accessToken: "token-1")
        }
        expectFailure(.athMismatch, bound, method: "GET", accessToken: "token-2")
        let unbound = try DPoP.proof(key: key, method: "GET", url: url, now: now)
        expectFailure(.missingATH, unbound, method: "GET", accessToken: "token-1")
    }

    @Test("a flipped signature bit or a jwk of another key fails as a bad signature")
    func badSignature() throws {
        let proof = try DPoP.proof(key: key, method: "POST", url: url, now: now)
        expectFailure(.badSignature, RawJWS.flippingSignatureBit(proof))
        let otherJWK = String(decoding: try JSONEncoder().encode(P256PrivateKey().publicKey.jwk), as: UTF8.self)
        let claims = #"{"jti":"j","htm":"POST","htu":"\#(url)","iat":\#(now)}"#
        expectFailure(
            .badSignature, try rawProof(header: #"{"typ":"dpop+jwt","alg":"ES256","jwk":\#(otherJWK)}"#, claims: claims)
        )
    }

    @Test("each header defect is reported as its own error")
    func headerFailures() throws {
        let jwk = key.publicKey.jwk
        let claims = #"{"jti":"j","htm":"POST","htu":"\#(url)","iat":\#(now)}"#
        let keyJSON = #"{"kty":"EC","crv":"P-256","x":"\#(jwk.x)","y":"\#(jwk.y)"}"#
        expectFailure(.typ, try rawProof(header: #"{"typ":"JWT","alg":"ES256","jwk":\#(keyJSON)}"#, claims: claims))
        expectFailure(.typ, try rawProof(header: #"{"alg":"ES256","jwk":\#(keyJSON)}"#, claims: claims))
        expectFailure(
            .alg, try rawProof(header: #"{"typ":"dpop+jwt","alg":"ES384","jwk":\#(keyJSON)}"#, claims: claims))
        expectFailure(.alg, try rawProof(header: #"{"typ":"dpop+jwt","alg":"none","jwk":\#(keyJSON)}"#, claims: claims))
        expectFailure(.missingJWK, try rawProof(header: #"{"typ":"dpop+jwt","alg":"ES256"}"#, claims: claims))
        let withPrivate =
            #"{"kty":"EC","crv":"P-256","x":"\#(jwk.x)","y":"\#(jwk.y)","d":"\#(Base64URL.encode(key.rawRepresentation))"}"#
        expectFailure(
            .privateKeyInJWK,
            try rawProof(header: #"{"typ":"dpop+jwt","alg":"ES256","jwk":\#(withPrivate)}"#, claims: claims))
        for badKey in [
            #"{"kty":"EC","crv":"P-384","x":"\#(jwk.x)","y":"\#(jwk.y)"}"#,
            #"{"kty":"RSA","n":"AQAB","e":"AQAB"}"#,
            #"{"kty":"EC","crv":"P-256","x":"\#(jwk.x)","y":"\#(jwk.x)"}"#,
            #"{"kty":"EC","crv":"P-256","x":"\#(jwk.x)"}"#,
        ] {
            expectFailure(
                .invalidJWK, try rawProof(header: #"{"typ":"dpop+jwt","alg":"ES256","jwk":\#(badKey)}"#, claims: claims)
            )
        }
    }

    @Test("missing jti, htm, htu or iat are each reported")
    func missingClaims() throws {
        expectFailure(.missingJTI, try rawProof(claims: #"{"htm":"POST","htu":"\#(url)","iat":\#(now)}"#))
        expectFailure(.missingJTI, try rawProof(claims: #"{"jti":"","htm":"POST","htu":"\#(url)","iat":\#(now)}"#))
        expectFailure(.missingHTM, try rawProof(claims: #"{"jti":"j","htu":"\#(url)","iat":\#(now)}"#))
        expectFailure(.missingHTU, try rawProof(claims: #"{"jti":"j","htm":"POST","iat":\#(now)}"#))
        expectFailure(.missingIAT, try rawProof(claims: #"{"jti":"j","htm":"POST","htu":"\#(url)"}"#))
        expectFailure(.missingIAT, try rawProof(claims: #"{"jti":"j","htm":"POST","htu":"\#(url)","iat":"soon"}"#))
    }

    @Test("anything but a compact JWS of JSON is malformed")
    func malformedProofs() throws {
        for proof in [
            "", "a.b", "a.b.c", "x.y.z.w", try rawProof(claims: "[1,2]"), try rawProof(header: "7", claims: "{}"),
        ] {
            expectFailure(.malformed, proof)
        }
        #expect(DPoP.ProofError(.typ).description == "DPoP proof typ must be dpop+jwt")
    }
}
