import ATProto
import AuthServer
import Backend
import HTTPServer

/// The authorization server as the backend's authenticator: who a request acts for, and what its token was granted.
struct AuthServerViewers: ViewerAuthenticator {
    let authServer: AuthServer

    func viewer(for request: Request) async -> AuthenticatedViewer? {
        await authServer.resourceViewer(for: request).map { AuthenticatedViewer(did: $0.did, scope: $0.scope) }
    }

    func dpopChallenge(for request: Request) -> (nonce: String, wwwAuthenticate: String)? { authServer.dpopChallenge(for: request) }

    func currentDPoPNonce() -> String? { authServer.currentDPoPNonce() }

    func admits(_ head: RequestHead) -> Bool { authServer.admitsResourceRequest(head) }
}

/// The backend's household accounts as the authorization server's directory of who may sign in: a disabled one
/// (or one whose removal is pending) may not.
struct BackendAccounts: AccountDirectory {
    let store: BackendStore

    func account(did: DID) throws -> DirectoryAccount? {
        try store.accounts.account(did.rawValue).flatMap { $0.isActive ? DirectoryAccount(did: $0.did, handle: $0.handle) : nil }
    }

    func account(handle: String) throws -> DirectoryAccount? {
        try store.accounts.account(handle).flatMap { $0.isActive ? DirectoryAccount(did: $0.did, handle: $0.handle) : nil }
    }

    func disabledAccount(did: DID) throws -> DirectoryAccount? {
        try store.accounts.account(did.rawValue).flatMap { $0.isDisabled ? DirectoryAccount(did: $0.did, handle: $0.handle) : nil }
    }

    func disabledAccount(handle: String) throws -> DirectoryAccount? {
        try store.accounts.account(handle).flatMap { $0.isDisabled ? DirectoryAccount(did: $0.did, handle: $0.handle) : nil }
    }
}
