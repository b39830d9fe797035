import ATProto
import Crypto
import HTTPServer
import Storage

extension AuthServer {
    /// `POST /oauth/revoke` (RFC 7009): `token` is a refresh or access token; either revokes the whole grant, so
    /// logging out ends every token of that session. Always 200, whether or not the token was known.
    ///
    /// No proof is required (public clients have no other credential to show, and hatk has no endpoint at all),
    /// but one that is sent must be valid for this endpoint under one of our origins.
    func revoke(_ request: Request) -> Response {
        handleOAuth("revoke") {
            if !request.headers.values("DPoP").isEmpty {
                _ = try authorizationServerProof(request, path: "/oauth/revoke", now: clock().unixSeconds)
            }
            let parameters = try OAuthParameters(request: request)
            let token = try parameters.require("token")
            let clientID = parameters["client_id"]
            try database.write { connection in
                var grantID = try connection.queryOne(
                    "SELECT grant_id FROM refresh_tokens WHERE hash = ?", [Self.tokenHash(token)]
                )?.string("grant_id")
                if grantID == nil,
                    let claims = try? JWT.verify(token, key: signingKey.publicKey, claims: AccessTokenClaims.self)
                {
                    grantID = try connection.queryOne(
                        "SELECT grant_id FROM access_tokens WHERE jti = ?", [claims.jti]
                    )?.string("grant_id")
                }
                guard let grantID else { return }
                // A client may only revoke its own grants (RFC 7009 §2.1); a mismatch is ignored, not reported.
                if let clientID {
                    let owner = try connection.queryOne("SELECT client_id FROM grants WHERE id = ?", [grantID])
                    guard owner?.string("client_id") == clientID else { return }
                }
                try Self.revokeGrant(grantID, connection)
            }
            var response = Response(status: .ok)
            response.headers["Cache-Control"] = "no-store"
            return response
        }
    }
}
