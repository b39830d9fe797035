import Foundation
import HTTPServer
import TestSupport
import Testing

@testable import AuthServer

struct NonceTests {
    /// In nonce mode a PAR without a nonce gets use_dpop_nonce and the nonce; the retry with it succeeds.
    @Test("nonce mode: PAR without a nonce gets 400 use_dpop_nonce, the retry with the nonce succeeds")
    func parNonceRetry() async throws {
        // setup
        let fixture = try AuthFixture { $0.requireDPoPNonce = true }
        var client = TestClient()

        // act
        let first = try await fixture.par(client)
        client.nonce = first.headers["DPoP-Nonce"]
        let retry = try await fixture.par(client)

        // validate
        #expect(first.status.code == 400)
        #expect(first.oauthError == "use_dpop_nonce")
        #expect(client.nonce?.isEmpty == false)
        #expect(retry.status.code == 201)
        #expect(retry.headers["DPoP-Nonce"] == client.nonce)
    }

    /// The whole flow works in nonce mode, and a resource request without the nonce has no viewer but a challenge.
    @Test("nonce mode: a resource request without the nonce gets no viewer and a use_dpop_nonce challenge")
    func resourceChallenge() async throws {
        // setup
        let fixture = try AuthFixture { $0.requireDPoPNonce = true }
        var client = TestClient()
        client.nonce = try await fixture.par(client).headers["DPoP-Nonce"]
        let access = try #require(try await fixture.signedIn(client)["access_token"] as? String)
        let withoutNonce = try fixture.resourceRequest(client, accessToken: access)
        let withNonce = try fixture.resourceRequest(client, accessToken: access, nonce: client.nonce)

        // act
        let refused = await fixture.server.viewer(for: withoutNonce)
        let challenge = fixture.server.dpopChallenge(for: withoutNonce)
        let accepted = await fixture.server.viewer(for: withNonce)

        // validate
        #expect(refused == nil)
        #expect(challenge?.nonce == client.nonce)
        #expect(challenge?.wwwAuthenticate.hasPrefix(#"DPoP error="use_dpop_nonce""#) == true)
        #expect(accepted == fixture.maya)
        #expect(fixture.server.dpopChallenge(for: withNonce) == nil)
    }

    /// Without nonce mode (hatk's behaviour) nothing about nonces appears.
    @Test("without nonce mode no DPoP-Nonce header or challenge is issued")
    func hatkMode() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()

        // act
        let par = try await fixture.par(client)
        let challenge = fixture.server.dpopChallenge(
            for: Request(method: .get, path: "/xrpc/x", headers: ["DPoP": "x.y.z"]))

        // validate
        #expect(par.status.code == 201)
        #expect(par.headers["DPoP-Nonce"] == nil)
        #expect(challenge == nil)
        #expect(fixture.server.currentDPoPNonce() == nil)
    }

    /// The nonce rotates; the previous one stays valid until the next rotation.
    @Test("nonces rotate after the interval and the previous one has a grace period")
    func rotation() {
        // setup
        var counter = 0
        func make() -> String {
            counter += 1
            return "n\(counter)"
        }
        var nonces = IssuedNonces(now: 1000, make: make)

        // act
        nonces.advance(now: 1000 + IssuedNonces.interval - 1, make: make)
        let beforeRotation = nonces.current
        nonces.advance(now: 1000 + IssuedNonces.interval, make: make)
        let afterFirst = (nonces.current, nonces.accepts("n1"), nonces.accepts("n2"), nonces.accepts(nil))
        nonces.advance(now: 1000 + 2 * IssuedNonces.interval, make: make)
        let afterSecond = (nonces.current, nonces.accepts("n1"), nonces.accepts("n2"))
        nonces.advance(now: 1000 + 10 * IssuedNonces.interval, make: make)
        let afterIdle = (nonces.current, nonces.accepts("n3"))

        // validate
        #expect(IssuedNonces.interval <= 300)
        #expect(beforeRotation == "n1")
        #expect(afterFirst == ("n2", true, true, false))
        #expect(afterSecond == ("n3", false, true))
        #expect(afterIdle == ("n4", false))
    }

    /// A nonce from before a rotation still works at the endpoints during the grace period.
    @Test("nonce mode: the previous nonce is still accepted right after a rotation")
    func gracePeriod() async throws {
        // setup
        let fixture = try AuthFixture { $0.requireDPoPNonce = true }
        var client = TestClient()
        client.nonce = try await fixture.par(client).headers["DPoP-Nonce"]
        fixture.clock.advance(seconds: Double(IssuedNonces.interval))

        // act
        let response = try await fixture.par(client)

        // validate
        #expect(response.status.code == 201)
        #expect(response.headers["DPoP-Nonce"] != client.nonce)
    }
}
