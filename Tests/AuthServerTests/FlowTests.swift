import ATProto
import Crypto
import Foundation
import HTTPServer
import TestSupport
import Testing

@testable import AuthServer

struct FlowTests {
    /// The whole flow: PAR, sign-in page, password, code, token, then a resource request acting for the account.
    @Test("PAR, sign-in, code and token give a token the resource side accepts as the account")
    func wholeFlow() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()

        // act
        let par = try await fixture.par(client)
        let requestURI = try #require(par.json["request_uri"] as? String)
        let page = await fixture.authorizePage(requestURI: requestURI, clientID: client.clientID)
        let signIn = await fixture.submit(client, requestURI: requestURI)
        let code = try #require(signIn.redirectQuery["code"])
        let token = try await fixture.exchange(client, code: code)
        let body = token.json
        let accessToken = try #require(body["access_token"] as? String)
        let viewer = await fixture.server.viewer(
            for: try fixture.resourceRequest(client, accessToken: accessToken))

        // validate
        #expect(par.status.code == 201)
        #expect(requestURI.hasPrefix("urn:ietf:params:oauth:request_uri:"))
        #expect(par.json["expires_in"] as? Int == 600)
        #expect(page.status.code == 200)
        #expect(page.page?.loginHint == "maya.home.test")
        #expect(page.page?.actionPath == "/oauth/authorize")
        #expect(signIn.status.code == 303)
        #expect(signIn.headers["Location"]?.hasPrefix(client.redirectURI + "?code=") == true)
        #expect(signIn.redirectQuery["state"] == client.state)
        #expect(signIn.redirectQuery["iss"] == AuthFixture.issuer)
        #expect(token.status.code == 200)
        #expect(token.headers["Cache-Control"] == "no-store")
        #expect(body["token_type"] as? String == "DPoP")
        #expect(body["expires_in"] as? Int == 3600)
        #expect(body["sub"] as? String == fixture.maya.rawValue)
        #expect(body["handle"] as? String == "maya.home.test")
        #expect(body["scope"] as? String == TestClient.scope)
        #expect((body["refresh_token"] as? String)?.isEmpty == false)
        #expect(viewer == fixture.maya)
    }

    /// The access token is an ES256 at+jwt with hatk's claims, verifiable with the published JWKS key.
    @Test("the access token carries hatk's claims and verifies with the JWKS key")
    func accessTokenShape() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        let accessToken = try #require(try await fixture.signedIn(client)["access_token"] as? String)
        let jwks = await fixture.send(Request(method: .get, path: "/oauth/jwks"))
        let keyData = try JSONSerialization.data(withJSONObject: try #require((jwks.json["keys"] as? [Any])?.first))
        let jwk = try JSONDecoder().decode(JWK.self, from: keyData)

        // act
        let verified = try JWT.verify(
            accessToken, key: try P256PublicKey(jwk: jwk), header: AccessTokenHeader.self,
            claims: AccessTokenClaims.self)

        // validate
        let now = fixture.clock.unixSeconds
        #expect(verified.header.typ == "at+jwt")
        #expect(verified.header.kid == jwk.kid)
        #expect(jwk.use == "sig" && jwk.alg == "ES256")
        #expect(verified.claims.iss == AuthFixture.issuer && verified.claims.aud == AuthFixture.issuer)
        #expect(verified.claims.sub == fixture.maya.rawValue)
        #expect(verified.claims.client_id == client.clientID)
        #expect(verified.claims.iat == now && verified.claims.exp == now + 3600)
        #expect(verified.claims.cnf.jkt == client.key.publicKey.jwk.thumbprint)
    }

    /// Refresh rotation: the new refresh token works, the old one is refused, and replaying it ends the grant.
    @Test("a refresh rotates the token; the old one is refused and its replay revokes the session")
    func refreshRotation() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        let first = try await fixture.signedIn(client)
        let oldRefresh = try #require(first["refresh_token"] as? String)

        // act
        let rotated = try await fixture.token(client, client.refreshFields(oldRefresh))
        let newRefresh = try #require(rotated.json["refresh_token"] as? String)
        let newAccess = try #require(rotated.json["access_token"] as? String)
        let viewerWithNew = await fixture.server.viewer(for: try fixture.resourceRequest(client, accessToken: newAccess))
        let second = try await fixture.token(client, client.refreshFields(newRefresh))
        let latestAccess = try #require(second.json["access_token"] as? String)
        let replay = try await fixture.token(client, client.refreshFields(oldRefresh))
        let latestAfterReplay = try await fixture.token(
            client, client.refreshFields(try #require(second.json["refresh_token"] as? String)))
        let viewerAfterReplay = await fixture.server.viewer(
            for: try fixture.resourceRequest(client, accessToken: latestAccess))

        // validate
        #expect(rotated.status.code == 200)
        #expect(newRefresh != oldRefresh)
        #expect(viewerWithNew == fixture.maya)
        #expect(second.status.code == 200)
        #expect(replay.status.code == 400)
        #expect(replay.oauthError == "invalid_grant")
        #expect(latestAfterReplay.status.code == 400)
        #expect(viewerAfterReplay == nil)
    }

    /// Revocation at logout: the refresh token and the access tokens of the session stop working.
    @Test("revoking the refresh token ends the refresh and access tokens of that session")
    func revocation() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        let tokens = try await fixture.signedIn(client)
        let refresh = try #require(tokens["refresh_token"] as? String)
        let access = try #require(tokens["access_token"] as? String)
        let other = TestClient()
        let otherAccess = try #require(try await fixture.signedIn(other)["access_token"] as? String)

        // act
        let revoke = await fixture.send(
            Request(
                method: .post, path: "/oauth/revoke", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Form.encode(["token": refresh, "client_id": client.clientID])))
        let unknown = await fixture.send(
            Request(
                method: .post, path: "/oauth/revoke", headers: ["Content-Type": "application/json"],
                body: Array(#"{"token":"not-a-token"}"#.utf8)))
        let refreshAfter = try await fixture.token(client, client.refreshFields(refresh))
        let viewerAfter = await fixture.server.viewer(for: try fixture.resourceRequest(client, accessToken: access))
        let otherViewer = await fixture.server.viewer(for: try fixture.resourceRequest(other, accessToken: otherAccess))

        // validate
        #expect(revoke.status.code == 200)
        #expect(unknown.status.code == 200)
        #expect(refreshAfter.oauthError == "invalid_grant")
        #expect(viewerAfter == nil)
        #expect(otherViewer == fixture.maya)
    }

    /// Revoking with the access token works as well (RFC 7009 allows either).
    @Test("revoking the access token ends the session too")
    func revokeByAccessToken() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        let tokens = try await fixture.signedIn(client)
        let access = try #require(tokens["access_token"] as? String)

        // act
        let revoke = await fixture.send(
            Request(
                method: .post, path: "/oauth/revoke", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Form.encode(["token": access])))
        let viewer = await fixture.server.viewer(for: try fixture.resourceRequest(client, accessToken: access))
        let refresh = try await fixture.token(client, client.refreshFields(try #require(tokens["refresh_token"] as? String)))

        // validate
        #expect(revoke.status.code == 200)
        #expect(viewer == nil)
        #expect(refresh.status.code == 400)
    }

    /// A password change signs the account out everywhere.
    @Test("changing the password revokes the account's sessions")
    func passwordChangeRevokes() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        let access = try #require(try await fixture.signedIn(client)["access_token"] as? String)

        // act
        try await fixture.server.setPassword("a brand new password", for: fixture.maya)
        let viewer = await fixture.server.viewer(for: try fixture.resourceRequest(client, accessToken: access))

        // validate
        #expect(viewer == nil)
    }
}
