import ATProto
import Crypto
import Foundation
import HTTPServer
import TestSupport
import Testing

@testable import AuthServer

struct ResourceTests {
    /// A signed-in session: the fixture, the client and its access token.
    private func session() async throws -> (AuthFixture, TestClient, String) {
        let fixture = try AuthFixture()
        let client = TestClient()
        let access = try #require(try await fixture.signedIn(client)["access_token"] as? String)
        return (fixture, client, access)
    }

    /// An expired access token gives no viewer.
    @Test("an access token past its exp gives no viewer")
    func expiredToken() async throws {
        // setup
        let (fixture, client, access) = try await session()
        fixture.clock.advance(seconds: 3601)
        let request = try fixture.resourceRequest(client, accessToken: access)

        // act
        let viewer = await fixture.server.viewer(for: request)

        // validate
        #expect(viewer == nil)
        #expect(fixture.server.resources.authenticate(request) == .failure(.tokenExpired))
    }

    /// A stolen token is useless without the bound key.
    @Test("a token presented with a proof from another key gives no viewer")
    func otherKey() async throws {
        // setup
        let (fixture, client, access) = try await session()
        let request = try fixture.resourceRequest(client, accessToken: access, proofKey: P256PrivateKey())

        // act
        let viewer = await fixture.server.viewer(for: request)

        // validate
        #expect(viewer == nil)
        #expect(fixture.server.resources.authenticate(request) == .failure(.keyMismatch))
    }

    /// The proof must hash this token (`ath`).
    @Test("a proof whose ath hashes another token gives no viewer")
    func athMismatch() async throws {
        // setup
        let (fixture, client, access) = try await session()
        let request = try fixture.resourceRequest(client, accessToken: access, proofToken: "some-other-token")

        // act
        let viewer = await fixture.server.viewer(for: request)

        // validate
        #expect(viewer == nil)
        #expect(fixture.server.resources.authenticate(request) == .failure(.invalidProof("ath does not match the access token")))
    }

    /// The proof must target this request: issuer plus path, this method, and be recent.
    @Test("a proof for another URL, another method or too long ago gives no viewer")
    func proofTarget() async throws {
        // setup
        let (fixture, client, access) = try await session()
        let otherPath = try fixture.resourceRequest(
            client, accessToken: access, proofURL: AuthFixture.issuer + "/xrpc/dev.hatk.deleteRecord")
        let otherHost = try fixture.resourceRequest(
            client, accessToken: access, proofURL: "http://localhost:8080/xrpc/dev.hatk.createRecord")
        var otherMethod = try fixture.resourceRequest(client, accessToken: access)
        otherMethod.method = .get
        let stale = try fixture.resourceRequest(client, accessToken: access, iat: fixture.clock.unixSeconds - 301)

        // act
        var viewers: [DID?] = []
        for request in [otherPath, otherHost, otherMethod, stale] {
            viewers.append(await fixture.server.viewer(for: request))
        }

        // validate
        #expect(viewers == [nil, nil, nil, nil])
        #expect(fixture.server.resources.authenticate(otherPath) == .failure(.invalidProof("htu does not match")))
        #expect(fixture.server.resources.authenticate(otherMethod) == .failure(.invalidProof("htm does not match")))
        #expect(fixture.server.resources.authenticate(stale) == .failure(.invalidProof("iat outside the allowed window")))
    }

    /// The token itself must be ours and intact.
    @Test("a tampered token or one signed by another key gives no viewer")
    func forgedTokens() async throws {
        // setup
        let (fixture, client, access) = try await session()
        let parts = access.split(separator: ".").map(String.init)
        let claimsJSON = try #require(Base64URL.decode(parts[1]))
        var claims = try #require(try JSONSerialization.jsonObject(with: Data(claimsJSON)) as? [String: Any])
        claims["sub"] = fixture.jonas.rawValue
        let tamperedClaims = Base64URL.encode(Array(try JSONSerialization.data(withJSONObject: claims)))
        let tampered = [parts[0], tamperedClaims, parts[2]].joined(separator: ".")
        let original = try JWT.decode(access, header: AccessTokenHeader.self, claims: AccessTokenClaims.self).claims
        let foreign = try JWT.sign(header: AccessTokenHeader(kid: "other"), claims: original, key: P256PrivateKey())

        // act
        let tamperedRequest = try fixture.resourceRequest(client, accessToken: tampered)
        let foreignRequest = try fixture.resourceRequest(client, accessToken: foreign)
        let tamperedViewer = await fixture.server.viewer(for: tamperedRequest)
        let foreignViewer = await fixture.server.viewer(for: foreignRequest)

        // validate
        #expect(tamperedViewer == nil)
        #expect(foreignViewer == nil)
        #expect(fixture.server.resources.authenticate(tamperedRequest) == .failure(.invalidToken("JWT signature is invalid")))
        #expect(fixture.server.resources.authenticate(foreignRequest) == .failure(.invalidToken("JWT signature is invalid")))
    }

    /// Only the DPoP scheme with a proof counts; Bearer is ignored as hatk does.
    @Test("a Bearer token or a DPoP token without a proof gives no viewer")
    func wrongScheme() async throws {
        // setup
        let (fixture, client, access) = try await session()
        var bearer = try fixture.resourceRequest(client, accessToken: access)
        bearer.headers["Authorization"] = "Bearer \(access)"
        var noProof = try fixture.resourceRequest(client, accessToken: access)
        noProof.headers["DPoP"] = nil
        var lowercase = try fixture.resourceRequest(client, accessToken: access)
        lowercase.headers["Authorization"] = "dpop \(access)"

        // act
        let bearerViewer = await fixture.server.viewer(for: bearer)
        let noProofViewer = await fixture.server.viewer(for: noProof)
        let lowercaseViewer = await fixture.server.viewer(for: lowercase)

        // validate
        #expect(bearerViewer == nil)
        #expect(fixture.server.resources.authenticate(bearer) == .failure(.noCredentials))
        #expect(noProofViewer == nil)
        #expect(lowercaseViewer == fixture.maya)
    }

    /// Issue 10 item 3a: behind a TLS proxy, or when the front calls its backend over loopback, the request
    /// arrives under another Host than the origin the client addressed; the proof names the latter.
    @Test("a proof naming any of our origins is accepted whatever Host the request arrived with; a foreign one is not")
    func proofOrigins() async throws {
        // setup
        let (fixture, client, access) = try await session()
        var lanProof = try fixture.resourceRequest(
            client, accessToken: access, proofURL: "http://192.168.1.20:8080/xrpc/dev.hatk.createRecord")
        lanProof.headers["Host"] = "127.0.0.1:8080"
        let foreign = try fixture.resourceRequest(
            client, accessToken: access, proofURL: "http://evil.test:8080/xrpc/dev.hatk.createRecord")

        // act
        let lanViewer = await fixture.server.viewer(for: lanProof)
        let foreignViewer = await fixture.server.viewer(for: foreign)

        // validate
        #expect(lanViewer == fixture.maya)
        #expect(foreignViewer == nil)
        #expect(
            fixture.server.resources.authenticate(foreign)
                == .failure(.invalidProof("htu names an origin this server is not served at")))
    }
}

struct ResourceViewerTests {
    /// The backend checks the scope per procedure, so the resource check must hand it over with the account.
    @Test("the resource check returns the account, the granted scope and the client")
    func grantedScope() async throws {
        // setup
        let fixture = try AuthFixture()
        var client = TestClient()
        client.scope = "atproto repo:social.grain.story"
        let access = try #require(try await fixture.signedIn(client)["access_token"] as? String)

        // act
        let viewer = await fixture.server.resourceViewer(for: try fixture.resourceRequest(client, accessToken: access))

        // validate
        #expect(viewer?.did == fixture.maya)
        #expect(viewer?.scope == "atproto repo:social.grain.story")
        #expect(viewer?.scopes == ["atproto", "repo:social.grain.story"])
        #expect(viewer?.hasScope("repo:social.grain.story") == true)
        #expect(viewer?.hasScope("blob:image/*") == false)
        #expect(viewer?.clientID == client.clientID)
    }

    /// An account the directory no longer has (deleted or disabled) loses its sessions at once.
    @Test("tokens of an account the directory no longer lists are refused, and so is their refresh")
    func removedAccount() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        let tokens = try await fixture.signedIn(client)
        let access = try #require(tokens["access_token"] as? String)
        let refresh = try #require(tokens["refresh_token"] as? String)

        // act
        fixture.accounts.remove(fixture.maya)
        let request = try fixture.resourceRequest(client, accessToken: access)
        let viewer = await fixture.server.resourceViewer(for: request)
        let refreshed = try await fixture.token(client, client.refreshFields(refresh))

        // validate
        #expect(viewer == nil)
        #expect(fixture.server.resources.authenticate(request) == .failure(.unknownAccount))
        #expect(refreshed.status.code == 400)
        #expect(refreshed.json["error_description"] as? String == "The account no longer exists")
    }
}
