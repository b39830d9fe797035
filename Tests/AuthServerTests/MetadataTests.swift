import Foundation
import HTTPServer
import Testing

@testable import AuthServer

struct MetadataTests {
    /// hatk's metadata shape with our issuer, PAR required, revocation implemented and advertised.
    @Test("authorization server metadata has hatk's shape with PAR required and revocation")
    func authorizationServerMetadata() async throws {
        // setup
        let fixture = try AuthFixture()
        let issuer = AuthFixture.issuer

        // act
        let response = await fixture.send(Request(method: .get, path: "/.well-known/oauth-authorization-server"))
        let body = response.json

        // validate
        #expect(response.status.code == 200)
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(response.headers["Access-Control-Allow-Origin"] == "*")
        #expect(body["issuer"] as? String == issuer)
        #expect(body["authorization_endpoint"] as? String == issuer + "/oauth/authorize")
        #expect(body["token_endpoint"] as? String == issuer + "/oauth/token")
        #expect(body["pushed_authorization_request_endpoint"] as? String == issuer + "/oauth/par")
        #expect(body["revocation_endpoint"] as? String == issuer + "/oauth/revoke")
        #expect(body["jwks_uri"] as? String == issuer + "/oauth/jwks")
        #expect(body["require_pushed_authorization_requests"] as? Bool == true)
        #expect(body["authorization_response_iss_parameter_supported"] as? Bool == true)
        #expect(body["dpop_signing_alg_values_supported"] as? [String] == ["ES256"])
        #expect(body["token_endpoint_auth_methods_supported"] as? [String] == ["none"])
        #expect(body["code_challenge_methods_supported"] as? [String] == ["S256"])
        #expect(body["grant_types_supported"] as? [String] == ["authorization_code", "refresh_token"])
        #expect(body["response_types_supported"] as? [String] == ["code"])
        #expect(body["protected_resources"] as? [String] == [issuer])
        let scopes = try #require(body["scopes_supported"] as? [String])
        #expect(scopes.contains("atproto"))
        #expect(scopes.contains("repo:social.grain.story"))
        #expect(scopes.contains("blob:image/*"))
    }

    /// The protected-resource document points at us; the JWKS holds one ES256 signing key.
    @Test("protected-resource metadata and JWKS are served as hatk does")
    func resourceMetadataAndKeys() async throws {
        // setup
        let fixture = try AuthFixture()

        // act
        let resource = await fixture.send(Request(method: .get, path: "/.well-known/oauth-protected-resource"))
        let jwks = await fixture.send(Request(method: .get, path: "/oauth/jwks"))
        let keys = try #require(jwks.json["keys"] as? [[String: Any]])

        // validate
        #expect(resource.json["resource"] as? String == AuthFixture.issuer)
        #expect(resource.json["authorization_servers"] as? [String] == [AuthFixture.issuer])
        #expect(resource.json["bearer_methods_supported"] as? [String] == ["header"])
        #expect(keys.count == 1)
        #expect(keys.first?["kty"] as? String == "EC")
        #expect(keys.first?["crv"] as? String == "P-256")
        #expect(keys.first?["d"] == nil)
        #expect(jwks.headers["Access-Control-Allow-Origin"] == "*")
    }

    /// Browsers preflight the script-facing endpoints.
    @Test("OPTIONS on the token endpoint answers with CORS headers")
    func preflight() async throws {
        // setup
        let fixture = try AuthFixture()

        // act
        let response = await fixture.send(Request(method: .options, path: "/oauth/token"))

        // validate
        #expect(response.status.code == 200)
        #expect(response.headers["Access-Control-Allow-Methods"]?.contains("POST") == true)
        #expect(response.headers["Access-Control-Allow-Headers"]?.contains("DPoP") == true)
        #expect(response.headers["Access-Control-Expose-Headers"]?.contains("DPoP-Nonce") == true)
    }
}
