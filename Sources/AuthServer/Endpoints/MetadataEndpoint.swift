import HTTPServer

/// The documents clients discover the server by: RFC 8414 authorization-server metadata, the protected-resource
/// metadata and the JWKS. Each of our origins is its own consistent issuer (the atproto client checks that `issuer`
/// is the origin it fetched from), so both metadata documents follow the origin the request was sent to.
struct MetadataEndpoint: Sendable {
    let origins: OwnOrigins
    let signer: TokenSigner

    func authorizationServer(_ request: Request) -> Response {
        guard let issuer = origins.issuer(of: request) else { return Self.misdirected() }
        return Response.json(AuthorizationServerMetadata(issuer: issuer))
    }

    func protectedResource(_ request: Request) -> Response {
        guard let issuer = origins.issuer(of: request) else { return Self.misdirected() }
        return Response.json(ProtectedResourceMetadata(resource: issuer, authorization_servers: [issuer]))
    }

    /// The public token-signing key.
    func jwks() -> Response {
        Response.json(KeySet(keys: [signer.publicJWK]))
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
}
