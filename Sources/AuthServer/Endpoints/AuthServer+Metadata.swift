import Crypto
import HTTPServer

extension AuthServer {
    /// `atproto` plus every scope in Grain's production scope string (grain-api.md §7.7), and `blob:video/mp4`, which
    /// the household's own front asks for to post clips (Grain grants images only).
    public static let supportedScopes: [String] = [
        "atproto", "transition:generic", "blob:image/*", "blob:video/mp4",
        "repo:social.grain.gallery", "repo:social.grain.gallery.item", "repo:social.grain.photo",
        "repo:social.grain.photo.exif", "repo:social.grain.actor.profile", "repo:social.grain.graph.follow",
        "repo:social.grain.favorite", "repo:social.grain.comment", "repo:social.grain.story",
        "repo:social.grain.graph.block", "repo:app.bsky.feed.post?action=create",
    ]

    /// RFC 8414 metadata in hatk's shape, corrected where hatk advertises what it does not do.
    struct AuthorizationServerMetadata: Encodable {
        var issuer: String
        var authorization_endpoint: String
        var token_endpoint: String
        var revocation_endpoint: String
        var revocation_endpoint_auth_methods_supported = ["none"]
        var pushed_authorization_request_endpoint: String
        var jwks_uri: String
        var scopes_supported = AuthServer.supportedScopes
        var subject_types_supported = ["public"]
        var response_types_supported = ["code"]
        var response_modes_supported = ["query"]
        var grant_types_supported = ["authorization_code", "refresh_token"]
        var code_challenge_methods_supported = ["S256"]
        var token_endpoint_auth_methods_supported = ["none"]
        var dpop_signing_alg_values_supported = ["ES256"]
        var require_pushed_authorization_requests = true
        var authorization_response_iss_parameter_supported = true
        // Like hatk: atproto clients insist on it, although clients come from the allowlist or loopback rules
        // and no metadata document is fetched.
        var client_id_metadata_document_supported = true
        var protected_resources: [String]

        init(issuer: String) {
            self.issuer = issuer
            authorization_endpoint = issuer + "/oauth/authorize"
            token_endpoint = issuer + "/oauth/token"
            revocation_endpoint = issuer + "/oauth/revoke"
            pushed_authorization_request_endpoint = issuer + "/oauth/par"
            jwks_uri = issuer + "/oauth/jwks"
            protected_resources = [issuer]
        }
    }

    struct ProtectedResourceMetadata: Encodable {
        var resource: String
        var authorization_servers: [String]
        var bearer_methods_supported = ["header"]
        var scopes_supported = AuthServer.supportedScopes
    }

    struct KeySet: Encodable {
        var keys: [JWK]
    }

    /// RFC 8414 metadata for the origin the request was sent to, so each of our origins is its own consistent
    /// issuer (the atproto client checks that `issuer` is the origin it fetched from).
    func metadataResponse(_ request: Request) -> Response {
        guard let issuer = self.issuer(of: request) else { return finish(Self.misdirected()) }
        return finish(Response.json(AuthorizationServerMetadata(issuer: issuer)))
    }

    func protectedResourceResponse(_ request: Request) -> Response {
        guard let issuer = self.issuer(of: request) else { return finish(Self.misdirected()) }
        return finish(Response.json(ProtectedResourceMetadata(resource: issuer, authorization_servers: [issuer])))
    }

    /// 421 Misdirected Request: the Host names a server we are not, so we cannot say who the issuer is.
    static func misdirected() -> Response {
        var status = HTTPStatus(code: 421)
        status.reasonPhrase = "Misdirected Request"
        return Response.json(
            [
                "error": "invalid_request",
                "error_description": "This server is not served under the host this request names",
            ], status: status)
    }

    /// The public token-signing key, as hatk serves it (`use: sig`, `alg: ES256`, with its `kid`).
    func jwksResponse() -> Response {
        var key = signingKey.publicKey.jwk
        key.kid = keyID
        key.use = "sig"
        key.alg = "ES256"
        return finish(Response.json(KeySet(keys: [key])))
    }
}
