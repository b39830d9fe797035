import Foundation
import HTTPServer
import Testing

@testable import AuthServer

/// Issue 11 item 12: loopback clients follow atproto's localhost-client rules, not hatk's looser ones.
struct LocalhostClientTests {
    @Test("a localhost client redirects to a declared 127.0.0.1 or [::1] URI on any port, and is named as such")
    func declaredRedirects() async throws {
        // setup
        let fixture = try AuthFixture()
        let v4 = TestClient.localhost(redirect: "http://127.0.0.1/callback", using: "http://127.0.0.1:53124/callback")
        let v6 = TestClient.localhost(redirect: "http://[::1]:8000/callback", using: "http://[::1]:9/callback")
        var defaults = TestClient()
        defaults.clientID = "http://localhost"
        defaults.redirectURI = "http://127.0.0.1:4000/"
        defaults.scope = "atproto"

        // act
        let v4Response = try await fixture.par(v4)
        let v6Response = try await fixture.par(v6)
        let defaultResponse = try await fixture.par(defaults)
        let requestURI = try #require(v4Response.json["request_uri"] as? String)
        let page = await fixture.authorizePage(requestURI: requestURI, clientID: v4.clientID)

        // validate
        #expect(v4Response.status.code == 201)
        #expect(v6Response.status.code == 201)
        #expect(defaultResponse.status.code == 201)
        #expect(page.page?.clientName == "Development client (localhost)")
    }

    @Test(
        "hatk-style loopback clients and redirects outside the declared ones are refused",
        arguments: [
            // hatk accepts any client_id on a loopback host with a same-origin redirect; atproto does not.
            ("http://127.0.0.1:3000/oauth-client-metadata.json", "http://127.0.0.1:3000/oauth/callback"),
            ("http://[::1]:3000/client.json", "http://[::1]:3000/callback"),
            ("http://localhost:3000/", "http://127.0.0.1/"),
            ("http://localhost/client.json", "http://127.0.0.1/"),
            ("https://localhost", "http://127.0.0.1/"),
            ("http://localhost?redirect_uri=http%3A%2F%2Flocalhost%2Fcb", "http://localhost/cb"),
            ("http://localhost?redirect_uri=http%3A%2F%2F192.168.1.20%2Fcb", "http://192.168.1.20/cb"),
            ("http://localhost?client_name=Grain", "http://127.0.0.1/"),
            ("http://localhost?redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb", "http://127.0.0.1/other"),
            ("http://localhost?redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb", "http://[::1]/cb"),
            ("http://localhost?redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb", "https://127.0.0.1/cb"),
            ("http://localhost", "http://127.0.0.1/anything"),
        ])
    func refused(clientID: String, redirectURI: String) async throws {
        // setup
        let fixture = try AuthFixture()
        var client = TestClient()
        client.clientID = clientID
        client.redirectURI = redirectURI
        client.scope = "atproto"

        // act
        let response = try await fixture.par(client)

        // validate
        #expect(response.status.code == 400)
        #expect(["invalid_client", "invalid_request"].contains(response.oauthError))
    }

    @Test("a localhost client may ask only for the scopes its client_id declares (atproto by default)")
    func declaredScopes() async throws {
        // setup
        let fixture = try AuthFixture()
        var undeclared = TestClient.localhost(redirect: "http://127.0.0.1/cb", scope: "atproto")
        undeclared.scope = "atproto repo:social.grain.story"
        var plusEncoded = TestClient()
        plusEncoded.clientID = "http://localhost?redirect_uri=http%3A%2F%2F127.0.0.1%2Fcb&scope=atproto+blob%3Aimage%2F*"
        plusEncoded.redirectURI = "http://127.0.0.1/cb"
        plusEncoded.scope = "atproto blob:image/*"

        // act
        let refused = try await fixture.par(undeclared)
        let accepted = try await fixture.par(plusEncoded)

        // validate
        #expect(refused.oauthError == "invalid_scope")
        #expect(refused.json["error_description"] as? String == "Scope repo:social.grain.story is not declared by this client")
        #expect(accepted.status.code == 201)
    }
}

struct ScopeTests {
    @Test("scopes beyond those Grain's clients use cannot be granted")
    func unsupportedScope() async throws {
        // setup
        let fixture = try AuthFixture()
        var everything = TestClient()
        everything.scope = "atproto repo:*"
        var grain = TestClient()
        grain.scope = AuthServer.supportedScopes.joined(separator: " ")

        // act
        let refused = try await fixture.par(everything)
        let accepted = try await fixture.par(grain)

        // validate
        #expect(refused.status.code == 400)
        #expect(refused.oauthError == "invalid_scope")
        #expect(refused.json["error_description"] as? String == "Unsupported scope repo:*")
        #expect(accepted.status.code == 201)
    }
}
