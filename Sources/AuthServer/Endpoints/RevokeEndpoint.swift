import ATProto
import HTTPServer

/// `POST /oauth/revoke` (RFC 7009): `token` is a refresh or access token; either revokes the whole grant, so
/// logging out ends every token of that session. Always 200, whether or not the token was known.
///
/// No proof is required (public clients have no other credential to show, and hatk has no endpoint at all), but
/// one that is sent must be valid for this endpoint under one of our origins.
struct RevokeEndpoint: Sendable {
    let proofs: ProofChecker
    let grants: GrantStore
    let clock: @Sendable () -> UTCTime

    func respond(to request: Request) -> Response {
        OAuthResponses.handle("revoke") {
            if !request.headers.values("DPoP").isEmpty {
                _ = try proofs.authorizationServerProof(request, path: "/oauth/revoke", now: clock().unixSeconds)
            }
            let parameters = try OAuthParameters(request: request)
            let token = try parameters.require("token")
            try grants.revoke(token: token, clientID: parameters["client_id"])
            var response = Response(status: .ok)
            response.headers["Cache-Control"] = "no-store"
            return response
        }
    }
}
