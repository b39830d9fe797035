import ATProto
import HTTPServer

/// `POST /oauth/token`: the authorization-code and refresh-token grants, both DPoP-bound.
struct TokenEndpoint: Sendable {
    let proofs: ProofChecker
    let grants: GrantStore
    let accounts: any AccountDirectory
    let clock: @Sendable () -> UTCTime

    func respond(to request: Request) -> Response {
        OAuthResponses.handle("token") {
            let now = clock().unixSeconds
            let proof = try proofs.authorizationServerProof(request, path: "/oauth/token", now: now)
            let parameters = try OAuthParameters(request: request)
            let exchange: GrantStore.Exchange
            switch parameters["grant_type"] {
            case "authorization_code":
                let code = try parameters.require("code")
                let presented = try presentation(parameters, proof: proof, now: now)
                let redirectURI = try parameters.require("redirect_uri")
                let verifier = try parameters.require("code_verifier")
                exchange = try grants.redeem(code: code, redirectURI: redirectURI, verifier: verifier, presented)
            case "refresh_token":
                let token = try parameters.require("refresh_token")
                exchange = try grants.rotate(refreshToken: token, try presentation(parameters, proof: proof, now: now))
            case nil: throw OAuthErrorResponse.invalidRequest("Missing grant_type")
            default: throw OAuthErrorResponse(.unsupportedGrantType, "Unsupported grant_type")
            }
            let (issued, tokens) = try exchange.get()
            let handle = DID.parse(issued.did).flatMap { try? accounts.account(did: $0) }?.handle
            return OAuthResponses.noStoreJSON(
                TokenResponse(
                    access_token: tokens.accessToken, expires_in: tokens.expiresIn, refresh_token: tokens.refreshToken,
                    sub: issued.did, scope: issued.scope, handle: handle))
        }
    }

    /// The client, proof and time of a token request; `client_id` is required by both grants.
    private func presentation(
        _ parameters: OAuthParameters, proof: ProofChecker.CheckedProof, now: Int64
    ) throws(OAuthErrorResponse) -> GrantStore.Presentation {
        let accounts = accounts
        return GrantStore.Presentation(
            clientID: try parameters.require("client_id"), proof: proof, now: now,
            accountExists: { did in
                guard let did = DID.parse(did) else { return false }
                return try accounts.account(did: did) != nil
            })
    }
}
