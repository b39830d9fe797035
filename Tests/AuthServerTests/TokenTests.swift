import Crypto
import Foundation
import HTTPServer
import TestSupport
import Testing

@testable import AuthServer

struct TokenTests {
    /// PKCE: the verifier must hash to the pushed challenge. The answer is a 400, not hatk's 500.
    @Test("a wrong code_verifier is refused with 400 invalid_grant")
    func wrongVerifier() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        let code = try await fixture.code(for: client)
        var fields = client.codeFields(code)
        fields["code_verifier"] = PKCE.makeVerifier()

        // act
        let response = try await fixture.token(client, fields)

        // validate
        #expect(response.status.code == 400)
        #expect(response.oauthError == "invalid_grant")
        #expect(response.json["error_description"] as? String == "PKCE verification failed")
    }

    /// Codes are single-use; a second use also revokes what the first produced.
    @Test("a reused code is refused and revokes the tokens issued from it")
    func codeReuse() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        let code = try await fixture.code(for: client)
        let first = try await fixture.exchange(client, code: code)
        let access = try #require(first.json["access_token"] as? String)
        let refresh = try #require(first.json["refresh_token"] as? String)

        // act
        let second = try await fixture.exchange(client, code: code)
        let viewer = await fixture.server.viewer(for: try fixture.resourceRequest(client, accessToken: access))
        let refreshed = try await fixture.token(client, client.refreshFields(refresh))

        // validate
        #expect(first.status.code == 200)
        #expect(second.status.code == 400)
        #expect(second.json["error_description"] as? String == "Authorization code already used")
        #expect(viewer == nil)
        #expect(refreshed.oauthError == "invalid_grant")
    }

    /// redirect_uri and client_id must equal those of the PAR.
    @Test("a redirect_uri or client_id differing from the PAR is refused")
    func mismatchedRequest() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        var wrongRedirect = client.codeFields(try await fixture.code(for: client))
        wrongRedirect["redirect_uri"] = "http://127.0.0.1:3000/oauth/other"
        var wrongClient = client.codeFields(try await fixture.code(for: client))
        wrongClient["client_id"] = "http://127.0.0.1:3000/other.json"

        // act
        let redirectResponse = try await fixture.token(client, wrongRedirect)
        let clientResponse = try await fixture.token(client, wrongClient)

        // validate
        #expect(redirectResponse.json["error_description"] as? String == "redirect_uri mismatch")
        #expect(clientResponse.json["error_description"] as? String == "client_id mismatch")
    }

    /// The token request must be signed by the key that pushed the request.
    @Test("a token request with another DPoP key than the PAR is refused")
    func keyMismatch() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        let code = try await fixture.code(for: client)

        // act
        let response = try await fixture.token(client, client.codeFields(code), key: P256PrivateKey())

        // validate
        #expect(response.status.code == 400)
        #expect(response.json["error_description"] as? String == "DPoP key mismatch")
    }

    /// Codes live 60 seconds.
    @Test("a code older than 60 s is refused")
    func expiredCode() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        let code = try await fixture.code(for: client)
        fixture.clock.advance(seconds: 61)

        // act
        let response = try await fixture.exchange(client, code: code)

        // validate
        #expect(response.status.code == 400)
        #expect(response.json["error_description"] as? String == "Authorization code expired")
    }

    /// A replayed token-endpoint proof is refused like at PAR.
    @Test("a replayed proof at the token endpoint is refused")
    func replayedProof() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        let tokens = try await fixture.signedIn(client)
        let proof = try client.proof(.post, "/oauth/token", now: fixture.clock.unixSeconds)
        func refresh(_ token: String) -> Request {
            Request(
                method: .post, path: "/oauth/token",
                headers: ["Content-Type": "application/x-www-form-urlencoded", "DPoP": proof],
                body: Form.encode(client.refreshFields(token)))
        }

        // act
        let first = await fixture.send(refresh(try #require(tokens["refresh_token"] as? String)))
        let second = await fixture.send(refresh(try #require(first.json["refresh_token"] as? String)))

        // validate
        #expect(first.status.code == 200)
        #expect(second.status.code == 400)
        #expect(second.json["error_description"] as? String == "DPoP proof replayed")
    }

    /// Refresh tokens live 14 days.
    @Test("a refresh token 15 days old is refused as expired")
    func expiredRefreshToken() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        let refresh = try #require(try await fixture.signedIn(client)["refresh_token"] as? String)
        fixture.clock.advance(seconds: 15 * 86400)

        // act
        let response = try await fixture.token(client, client.refreshFields(refresh))

        // validate
        #expect(response.status.code == 400)
        #expect(response.json["error_description"] as? String == "Refresh token expired")
    }

    /// Stricter than hatk: a refresh must be signed by the session's key, and a foreign attempt does not burn it.
    @Test("a refresh with another DPoP key is refused and leaves the token usable")
    func refreshKeyMismatch() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        let refresh = try #require(try await fixture.signedIn(client)["refresh_token"] as? String)

        // act
        let stolen = try await fixture.token(client, client.refreshFields(refresh), key: P256PrivateKey())
        let owner = try await fixture.token(client, client.refreshFields(refresh))

        // validate
        #expect(stolen.json["error_description"] as? String == "DPoP key mismatch")
        #expect(owner.status.code == 200)
    }

    /// Unknown grant types and missing parameters are RFC 6749 errors.
    @Test("unknown grant types and missing parameters get RFC 6749 errors")
    func malformedRequests() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()

        // act
        let unsupported = try await fixture.token(client, ["grant_type": "password", "client_id": client.clientID])
        let noGrant = try await fixture.token(client, ["client_id": client.clientID])
        let noCode = try await fixture.token(client, ["grant_type": "authorization_code", "client_id": client.clientID])
        let unknownCode = try await fixture.token(client, client.codeFields("no-such-code"))
        let unknownRefresh = try await fixture.token(client, client.refreshFields("no-such-token"))

        // validate
        #expect(unsupported.oauthError == "unsupported_grant_type")
        #expect(noGrant.oauthError == "invalid_request")
        #expect(noCode.oauthError == "invalid_request")
        #expect(unknownCode.oauthError == "invalid_grant")
        #expect(unknownRefresh.json["error_description"] as? String == "Invalid refresh token")
        #expect([unsupported, noGrant, noCode, unknownCode, unknownRefresh].allSatisfy { $0.status.code == 400 })
    }
}
