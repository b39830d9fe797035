import ATProto
import Foundation
import HTTPServer
import HatkClient
import Synchronization
import Testing

/// A broken or hostile `--appview` answering sign-ins: it must get a clear error, never crash the server.
@Suite(.serialized)
struct OAuthHostileServerTests {
    /// An authorization server whose metadata names `authorize` as its authorization endpoint.
    func server(authorize: String, expiresIn: String = "3600", metadataHits: Counter = Counter()) throws -> StubServer {
        try StubServer { router in
            router.on(.get, "/.well-known/oauth-authorization-server") { request in
                metadataHits.increment()
                let origin = "http://\(request.headers["Host"] ?? "")"
                return jsonBody(
                    #"{"issuer":"\#(origin)","authorization_endpoint":"\#(authorize)","token_endpoint":"\#(origin)/oauth/token","pushed_authorization_request_endpoint":"\#(origin)/oauth/par"}"#
                )
            }
            router.on(.post, "/oauth/par") { _ in jsonBody(#"{"request_uri":"urn:x","expires_in":600}"#, status: .created) }
            router.on(.post, "/oauth/token") { _ in
                jsonBody(
                    #"{"access_token":"a","token_type":"DPoP","expires_in":\#(expiresIn),"refresh_token":"r","sub":"did:plc:abcabcabcabcabcabcabcabc"}"#
                )
            }
        }
    }

    func client(_ stub: StubServer) -> OAuthClient {
        OAuthClient(clientID: "http://localhost", redirectURI: "http://127.0.0.1/cb", issuer: stub.url, timeout: 5, policy: stub.policy)
    }

    @Test("an authorization endpoint that is not a URL is a server_error, refused again next time rather than cached")
    func unparsableEndpointIsAnError() async throws {
        let hits = Counter()
        let stub = try server(authorize: "http://[broken", metadataHits: hits)
        defer { Task { await stub.server.shutdown() } }
        let client = client(stub)
        for _ in 0..<2 {
            do {
                _ = try await client.beginSignIn(loginHint: nil)
                Issue.record("a broken endpoint must not give an authorization URL")
            } catch {
                #expect(error.code == "server_error")
            }
        }
        #expect(hits.value == 2, "the bad metadata is fetched again, not kept")
    }

    @Test("a huge expires_in is clamped to a day instead of overflowing")
    func hugeLifetimeIsClamped() async throws {
        let stub = try server(authorize: "http://127.0.0.1/authorize", expiresIn: "9223372036854775807")
        defer { Task { await stub.server.shutdown() } }
        let client = client(stub)
        let (_, pending) = try await client.beginSignIn(loginHint: nil)
        let tokens = try await client.completeSignIn(pending: pending, code: "c", issuer: stub.url.absoluteString)
        let now = Int64(Date().timeIntervalSince1970)
        #expect(tokens.expiresAt <= now + 86_400 + 5)
        #expect(tokens.expiresAt > now)
    }
}
