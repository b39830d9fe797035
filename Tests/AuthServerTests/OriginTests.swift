import Crypto
import Foundation
import HTTPServer
import TestSupport
import Testing

@testable import AuthServer

/// Issue 10: one server, many origins. A household reaches the same box as `http://192.168.1.20:8080`,
/// `http://box.local:8080` or `http://127.0.0.1:8080`; every answer and every flow follows the origin in use.
struct OriginTests {
    static let box = "http://box.local:8080"

    @Test("the metadata documents answer with the origin the request was sent to")
    func metadataPerOrigin() async throws {
        // setup
        let fixture = try AuthFixture()
        func get(_ path: String, host: String) async -> Response {
            await fixture.send(Request(method: .get, path: path, headers: ["Host": host]))
        }

        // act
        let lan = await get("/.well-known/oauth-authorization-server", host: "192.168.1.20:8080")
        let box = await get("/.well-known/oauth-authorization-server", host: "BOX.local:8080")
        let resource = await get("/.well-known/oauth-protected-resource", host: "box.local:8080")

        // validate
        #expect(lan.json["issuer"] as? String == "http://192.168.1.20:8080")
        #expect(lan.json["pushed_authorization_request_endpoint"] as? String == "http://192.168.1.20:8080/oauth/par")
        #expect(box.json["issuer"] as? String == Self.box)
        #expect(box.json["authorization_endpoint"] as? String == Self.box + "/oauth/authorize")
        #expect(box.json["token_endpoint"] as? String == Self.box + "/oauth/token")
        #expect(box.json["protected_resources"] as? [String] == [Self.box])
        #expect(resource.json["resource"] as? String == Self.box)
        #expect(resource.json["authorization_servers"] as? [String] == [Self.box])
    }

    @Test("a Host that is not ours gets 421 from the metadata documents, not an issuer built from it")
    func hostileHost() async throws {
        // setup
        let fixture = try AuthFixture()

        // act
        let response = await fixture.send(
            Request(method: .get, path: "/.well-known/oauth-authorization-server", headers: ["Host": "evil.test"]))
        let resource = await fixture.send(
            Request(method: .get, path: "/.well-known/oauth-protected-resource", headers: ["Host": "evil.test"]))

        // validate
        #expect(response.status.code == 421)
        #expect(response.oauthError == "invalid_request")
        #expect(response.json["issuer"] == nil)
        #expect(!response.text.contains("evil.test"))
        #expect(resource.status.code == 421)
    }

    /// The front pushes over loopback but names the browser's origin in the proof; the whole flow then follows it.
    @Test("a flow pushed over loopback for box.local has box.local as issuer in the callback, token and resource check")
    func flowFollowsProofOrigin() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient.own(Self.box)

        // act
        let requestURI = try await fixture.pushedRequestURI(client)
        let page = await fixture.authorizePage(requestURI: requestURI, clientID: client.clientID)
        let signIn = await fixture.submit(client, requestURI: requestURI, origin: Self.box)
        let code = try #require(signIn.redirectQuery["code"])
        let token = try await fixture.exchange(client, code: code)
        let access = try #require(token.json["access_token"] as? String)
        let claims = try JWT.decode(access, header: AccessTokenHeader.self, claims: AccessTokenClaims.self).claims
        var resource = try fixture.resourceRequest(client, accessToken: access)
        resource.headers["Host"] = "127.0.0.1:8080"
        let viewer = await fixture.server.viewer(for: resource)

        // validate
        #expect(page.page?.clientName == "grain-stories")
        #expect(signIn.status.code == 303)
        #expect(signIn.headers["Location"]?.hasPrefix(Self.box + "/auth/callback?code=") == true)
        #expect(signIn.redirectQuery["iss"] == Self.box)
        #expect(token.status.code == 200)
        #expect(claims.iss == Self.box && claims.aud == Self.box)
        #expect(viewer == fixture.maya)
    }

    @Test("the token request must name the flow's origin; another of ours is refused")
    func tokenFollowsFlowOrigin() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient.own(Self.box)
        let code = try await fixture.code(for: client)
        var elsewhere = client
        elsewhere.origin = AuthFixture.issuer

        // act
        let refused = try await fixture.token(elsewhere, client.codeFields(code))

        // validate
        #expect(refused.status.code == 400)
        #expect(refused.oauthError == "invalid_dpop_proof")
        #expect(refused.json["error_description"] as? String == "DPoP htu must name this session's issuer, \(Self.box)")
    }

    @Test("a refresh must name the grant's origin; the rotated tokens keep it")
    func refreshFollowsGrantOrigin() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient.own(Self.box)
        let code = try await fixture.code(for: client)
        let refresh = try #require(try await fixture.exchange(client, code: code).json["refresh_token"] as? String)
        var elsewhere = client
        elsewhere.origin = "http://192.168.1.20:8080"

        // act
        let refused = try await fixture.token(elsewhere, client.refreshFields(refresh))
        let rotated = try await fixture.token(client, client.refreshFields(refresh))
        let access = try #require(rotated.json["access_token"] as? String)
        let claims = try JWT.decode(access, header: AccessTokenHeader.self, claims: AccessTokenClaims.self).claims

        // validate
        #expect(refused.oauthError == "invalid_dpop_proof")
        #expect(rotated.status.code == 200, "a refused attempt does not burn the refresh token")
        #expect(claims.iss == Self.box)
    }

    @Test(
        "PAR whose proof names a foreign origin, or our origin with another path, is refused",
        arguments: ["http://evil.test:8080/oauth/par", "http://box.local:8080/oauth/token", "http://box.local:9999/oauth/par"])
    func parProofTarget(url: String) async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient.own(Self.box)
        let proof = try DPoP.proof(key: client.key, method: "POST", url: url, now: fixture.clock.unixSeconds)

        // act
        let response = try await fixture.par(client, proof: proof)

        // validate
        #expect(response.status.code == 400)
        #expect(response.oauthError == "invalid_dpop_proof")
    }

    @Test("the sign-in form must be posted from the flow's origin, not from another of ours")
    func formOrigin() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient.own(Self.box)
        let requestURI = try await fixture.pushedRequestURI(client)

        // act
        let otherOfOurs = await fixture.submit(client, requestURI: requestURI, origin: AuthFixture.issuer)
        let own = await fixture.submit(client, requestURI: requestURI, origin: Self.box)

        // validate
        #expect(otherOfOurs.status.code == 403)
        #expect(own.status.code == 303)
    }

    @Test("revocation checks a DPoP proof when one is sent: ours is accepted, a foreign origin's is refused")
    func revokeProof() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        let refresh = try #require(try await fixture.signedIn(client)["refresh_token"] as? String)
        func revoke(proofURL: String) async throws -> Response {
            let proof = try DPoP.proof(key: client.key, method: "POST", url: proofURL, now: fixture.clock.unixSeconds)
            return await fixture.send(
                Request(
                    method: .post, path: "/oauth/revoke",
                    headers: ["Content-Type": "application/x-www-form-urlencoded", "DPoP": proof],
                    body: Form.encode(["token": refresh, "client_id": client.clientID])))
        }

        // act
        let foreign = try await revoke(proofURL: "http://evil.test/oauth/revoke")
        let stillWorks = try await fixture.token(client, client.refreshFields(refresh))
        let refreshAgain = try #require(stillWorks.json["refresh_token"] as? String)
        let ourProof = try client.proof(.post, "/oauth/revoke", now: fixture.clock.unixSeconds)
        let ours = await fixture.send(
            Request(
                method: .post, path: "/oauth/revoke",
                headers: ["Content-Type": "application/x-www-form-urlencoded", "DPoP": ourProof],
                body: Form.encode(["token": refreshAgain, "client_id": client.clientID])))
        let afterwards = try await fixture.token(client, client.refreshFields(refreshAgain))

        // validate
        #expect(foreign.status.code == 400)
        #expect(foreign.oauthError == "invalid_dpop_proof")
        #expect(ours.status.code == 200)
        #expect(afterwards.oauthError == "invalid_grant")
    }
}

/// Issue 10 item 2: the front registers as this server's own client under each origin it serves.
struct OwnClientTests {
    static let storiesTest = "http://stories.test:8091"

    @Test("the front's client_id under an origin of ours is accepted without registration and named grain-stories")
    func acceptedWhenOurs() async throws {
        // setup
        let fixture = try AuthFixture(origins: [AuthFixture.issuer, Self.storiesTest])
        let client = TestClient.own(Self.storiesTest)

        // act
        let par = try await fixture.par(client)
        let requestURI = try #require(par.json["request_uri"] as? String)
        let page = await fixture.authorizePage(requestURI: requestURI, clientID: client.clientID)

        // validate
        #expect(par.status.code == 201)
        #expect(client.clientID == "http://stories.test:8091/oauth-client-metadata.json")
        #expect(page.page?.clientName == "grain-stories")
    }

    @Test("the same client_id is an unknown client when stories.test:8091 is not ours")
    func refusedWhenNotOurs() async throws {
        // setup
        let fixture = try AuthFixture()
        var client = TestClient.own(Self.storiesTest)
        // The proof names an origin of ours, so only the client rule can refuse.
        client.origin = AuthFixture.issuer

        // act
        let response = try await fixture.par(client)

        // validate
        #expect(response.status.code == 400)
        #expect(response.oauthError == "invalid_client")
    }

    @Test("an attacker's origin with our client metadata path is refused")
    func attackerOrigin() async throws {
        // setup
        let fixture = try AuthFixture()
        var client = TestClient()
        client.clientID = "https://evil.example/oauth-client-metadata.json"
        client.redirectURI = "https://evil.example/auth/callback"

        // act
        let response = try await fixture.par(client)

        // validate
        #expect(response.oauthError == "invalid_client")
    }

    @Test(
        "our own client may only use <origin>/auth/callback, in the exact serialized spelling",
        arguments: [
            ("http://box.local:8080/oauth-client-metadata.json", "http://box.local:8080/auth/other"),
            ("http://box.local:8080/oauth-client-metadata.json", "http://192.168.1.20:8080/auth/callback"),
            ("http://BOX.local:8080/oauth-client-metadata.json", "http://BOX.local:8080/auth/callback"),
            ("http://box.local:8080/x/oauth-client-metadata.json", "http://box.local:8080/x/auth/callback"),
        ])
    func exactRedirect(clientID: String, redirectURI: String) async throws {
        // setup
        let fixture = try AuthFixture()
        var client = TestClient.own(OriginTests.box)
        client.clientID = clientID
        client.redirectURI = redirectURI

        // act
        let response = try await fixture.par(client)

        // validate
        #expect(response.status.code == 400)
        #expect(["invalid_request", "invalid_client"].contains(response.oauthError))
    }
}
