import Crypto
import Foundation
import HTTPServer
import TestSupport
import Testing

@testable import AuthServer

struct PARTests {
    /// Without a DPoP header the PAR is refused.
    @Test("PAR without a DPoP proof is refused with 400")
    func noProof() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        let request = Request(
            method: .post, path: "/oauth/par", headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: Form.encode(client.parFields))

        // act
        let response = await fixture.send(request)

        // validate
        #expect(response.status.code == 400)
        #expect(response.oauthError == "invalid_dpop_proof")
        #expect(response.headers["Access-Control-Allow-Origin"] == "*")
    }

    /// A proof signed by another key than the one in its header fails the signature check.
    @Test("PAR with a proof whose signature does not match its key is refused")
    func badSignature() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        let proof = try client.proof(.post, "/oauth/par", now: fixture.clock.unixSeconds)
        let other = try TestClient().proof(.post, "/oauth/par", now: fixture.clock.unixSeconds)
        let forged =
            proof.split(separator: ".").prefix(2).joined(separator: ".") + "."
            + other.split(separator: ".")[2]

        // act
        let response = try await fixture.par(client, proof: forged)

        // validate
        #expect(response.status.code == 400)
        #expect(response.oauthError == "invalid_dpop_proof")
        #expect((response.json["error_description"] as? String)?.contains("signature") == true)
    }

    /// `htu` must be the issuer plus the endpoint path, and `htm` the method.
    @Test(
        "PAR with a proof for another URL or method is refused",
        arguments: [
            ("POST", "http://127.0.0.1:8080/oauth/token"), ("POST", "http://evil.test/oauth/par"),
            ("GET", "http://127.0.0.1:8080/oauth/par"),
        ])
    func wrongTarget(method: String, url: String) async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        let proof = try DPoP.proof(key: client.key, method: method, url: url, now: fixture.clock.unixSeconds)

        // act
        let response = try await fixture.par(client, proof: proof)

        // validate
        #expect(response.status.code == 400)
        #expect(response.oauthError == "invalid_dpop_proof")
    }

    /// Proofs older than five minutes are stale.
    @Test("PAR with a proof issued more than 300 s ago is refused")
    func staleProof() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        let proof = try client.proof(.post, "/oauth/par", now: fixture.clock.unixSeconds - 301)

        // act
        let response = try await fixture.par(client, proof: proof)

        // validate
        #expect(response.oauthError == "invalid_dpop_proof")
        #expect((response.json["error_description"] as? String)?.contains("iat") == true)
    }

    /// The same proof cannot be used twice.
    @Test("a replayed PAR proof (same jti) is refused")
    func replayedProof() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        let proof = try client.proof(.post, "/oauth/par", now: fixture.clock.unixSeconds)

        // act
        let first = try await fixture.par(client, proof: proof)
        let second = try await fixture.par(client, proof: proof)

        // validate
        #expect(first.status.code == 201)
        #expect(second.status.code == 400)
        #expect(second.json["error_description"] as? String == "DPoP proof replayed")
    }

    /// Only S256 PKCE; a missing challenge is refused too.
    @Test("PAR with a plain or missing code challenge is refused")
    func pkceRules() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        var plain = client.parFields
        plain["code_challenge_method"] = "plain"
        plain["code_challenge"] = client.verifier
        var missing = client.parFields
        missing["code_challenge"] = nil

        // act
        let plainResponse = try await fixture.par(client, plain)
        let missingResponse = try await fixture.par(client, missing)

        // validate
        #expect(plainResponse.status.code == 400)
        #expect(plainResponse.oauthError == "invalid_request")
        #expect(missingResponse.status.code == 400)
        #expect(missingResponse.json["error_description"] as? String == "Missing code_challenge")
    }

    /// An https client_id that is not registered is unknown (hatk fetches no metadata documents).
    @Test("an unregistered non-loopback client is refused with invalid_client")
    func unknownClient() async throws {
        // setup
        let fixture = try AuthFixture()
        var client = TestClient()
        client.clientID = "https://stories.example/oauth-client-metadata.json"
        client.redirectURI = "https://stories.example/oauth/callback"

        // act
        let response = try await fixture.par(client)

        // validate
        #expect(response.status.code == 400)
        #expect(response.oauthError == "invalid_client")
    }

    /// A registered client works with its listed redirect URIs only, custom schemes included.
    @Test("a registered client is accepted with a listed redirect URI and refused with another")
    func registeredClient() async throws {
        // setup
        let fixture = try AuthFixture {
            $0.registeredClients = [
                RegisteredClient(
                    clientID: "grain-native://app", redirectURIs: ["grain://oauth/callback"], clientName: "Grain")
            ]
        }
        var client = TestClient()
        client.clientID = "grain-native://app"
        client.redirectURI = "grain://oauth/callback"
        var unlisted = client.parFields
        unlisted["redirect_uri"] = "grain://oauth/other"

        // act
        let accepted = try await fixture.par(client)
        let refused = try await fixture.par(client, unlisted)
        let requestURI = try #require(accepted.json["request_uri"] as? String)
        let page = await fixture.authorizePage(requestURI: requestURI, clientID: client.clientID)
        let signIn = await fixture.submit(client, requestURI: requestURI)

        // validate
        #expect(accepted.status.code == 201)
        #expect(refused.oauthError == "invalid_request")
        #expect(page.page?.clientName == "Grain")
        #expect(signIn.headers["Location"]?.hasPrefix("grain://oauth/callback?code=") == true)
    }

    /// state is required (hatk leaves it optional; security.md §6 asks for it) and scope must include atproto.
    @Test("PAR without state, or with a scope lacking atproto, is refused; no scope means atproto")
    func stateAndScope() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        var noState = client.parFields
        noState["state"] = nil
        var noAtproto = client.parFields
        noAtproto["scope"] = "repo:social.grain.story"
        var noScope = client.parFields
        noScope["scope"] = nil

        // act
        let noStateResponse = try await fixture.par(client, noState)
        let noAtprotoResponse = try await fixture.par(client, noAtproto)
        let defaultScope = try await fixture.par(client, noScope)

        // validate
        #expect(noStateResponse.json["error_description"] as? String == "Missing state")
        #expect(noAtprotoResponse.oauthError == "invalid_scope")
        #expect(defaultScope.status.code == 201)
    }

    /// hatk accepts JSON bodies as well as forms.
    @Test("PAR accepts a JSON body")
    func jsonBody() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        var request = Request(
            method: .post, path: "/oauth/par", headers: ["Content-Type": "application/json"],
            body: Array(try JSONSerialization.data(withJSONObject: client.parFields)))
        request.headers["DPoP"] = try client.proof(.post, "/oauth/par", now: fixture.clock.unixSeconds)

        // act
        let response = await fixture.send(request)

        // validate
        #expect(response.status.code == 201)
        #expect(response.headers["Cache-Control"] == "no-store")
    }

    /// A request pinned with dpop_jkt must come from that key.
    @Test("PAR with a dpop_jkt of another key is refused")
    func pinnedKey() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        var fields = client.parFields
        fields["dpop_jkt"] = P256PrivateKey().publicKey.jwk.thumbprint

        // act
        let response = try await fixture.par(client, fields)

        // validate
        #expect(response.oauthError == "invalid_dpop_proof")
    }
}
