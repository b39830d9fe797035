public import HTTPServer

extension AuthServer {
    /// The largest body the PAR, token and revocation endpoints read.
    static let maxBodyBytes = 16 * 1024

    /// Adds the OAuth endpoints: the two metadata documents, JWKS, PAR, authorize (GET and POST), token and
    /// revocation, with CORS preflight answers for the endpoints clients call from scripts.
    public func register(on router: inout Router) {
        let endpoints = endpoints
        // Errors the router raises itself (unknown path, body too large) in the OAuth error shape.
        let oauthErrors: ErrorResponder = { [self] error, _ in
            let code = error.status == .payloadTooLarge || error.status == .notFound ? "invalid_request" : "server_error"
            let message = error.message.isEmpty ? error.status.reasonPhrase : error.message
            return finish(Response.json(["error": code, "error_description": message], status: error.status))
        }
        router.group("/.well-known") { wellKnown in
            wellKnown.errorResponder = oauthErrors
            wellKnown.on(.get, "/.well-known/oauth-authorization-server") { [self] request in
                finish(endpoints.metadata.authorizationServer(request))
            }
            wellKnown.on(.get, "/.well-known/oauth-protected-resource") { [self] request in
                finish(endpoints.metadata.protectedResource(request))
            }
            for path in ["/.well-known/oauth-authorization-server", "/.well-known/oauth-protected-resource"] {
                wellKnown.on(.options, path) { [self] _ in finish(Response(status: .ok)) }
            }
        }
        router.group("/oauth") { oauth in
            oauth.errorResponder = oauthErrors
            oauth.on(.get, "/oauth/jwks") { [self] _ in finish(endpoints.metadata.jwks()) }
            let limit = Self.maxBodyBytes
            oauth.on(.post, "/oauth/par", bodyLimit: limit) { [self] request in finish(endpoints.par.respond(to: request)) }
            oauth.on(.get, "/oauth/authorize") { request in endpoints.authorize.respond(to: request) }
            oauth.on(.post, "/oauth/authorize", bodyLimit: limit) { request in await endpoints.signIn.respond(to: request) }
            oauth.on(.post, "/oauth/token", bodyLimit: limit) { [self] request in finish(endpoints.token.respond(to: request)) }
            oauth.on(.post, "/oauth/revoke", bodyLimit: limit) { [self] request in
                finish(endpoints.revoke.respond(to: request))
            }
            for path in ["/oauth/jwks", "/oauth/par", "/oauth/token", "/oauth/revoke"] {
                oauth.on(.options, path) { [self] _ in finish(Response(status: .ok)) }
            }
        }
    }

    /// Adds CORS (``CORS/oauth``) and, in nonce mode, a current `DPoP-Nonce` to an answer of a script-facing endpoint.
    func finish(_ response: Response) -> Response {
        var response = response
        response.allow(.oauth)
        if let nonce = nonces.current() {
            response.headers["DPoP-Nonce"] = nonce
        }
        return response
    }
}
