import Crypto

extension MetadataEndpoint {
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
}
