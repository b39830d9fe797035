import ATProto
import AuthServer
import Backend
import HTTPServer

/// The authorization server as the backend's authenticator: who a request acts for, and what its token was granted.
struct AuthServerViewers: ViewerAuthenticator {
    let authServer: AuthServer

    func viewer(for request: Request) async -> AuthenticatedViewer? {
        await authServer.grantedAccess(for: request).map { AuthenticatedViewer(did: $0.did, scope: $0.scope) }
    }

    func dpopChallenge(for request: Request) -> (nonce: String, wwwAuthenticate: String)? { authServer.dpopChallenge(for: request) }

    func currentDPoPNonce() -> String? { authServer.currentDPoPNonce() }
}
