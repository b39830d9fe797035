public import ATProto
public import HTTPServer

/// Who a backend request acts for, and what the access token lets it do.
public struct AuthenticatedViewer: Sendable, Equatable {
    public var did: DID
    /// The token's granted scope: space-separated atproto scopes (`atproto repo:social.grain.story blob:image/*`).
    public var scope: String

    public init(did: DID, scope: String) {
        self.did = did
        self.scope = scope
    }

    public var grantedScope: GrantedScope { GrantedScope(scope) }
}

/// Decides which account a request to the backend acts for.
///
/// Like hatk, a missing or broken credential is not an error here: the request simply has no
/// viewer, reads stay public, and writes answer 401.
public protocol ViewerAuthenticator: Sendable {
    func viewer(for request: Request) async -> AuthenticatedViewer?
    /// When the server requires DPoP nonces and this request's proof lacks a fresh one: the nonce to
    /// send and the `WWW-Authenticate` value that asks the client to retry with it.
    func dpopChallenge(for request: Request) -> (nonce: String, wwwAuthenticate: String)?
    /// The nonce every response advertises when nonces are on.
    func currentDPoPNonce() -> String?
    /// Whether a write's head carries credentials worth reading its body for, decided before any body byte is read
    /// (on a server thread: quick, no database, nothing consumed). A false answer is a 401 at once.
    func admits(_ head: RequestHead) -> Bool
}

extension ViewerAuthenticator {
    /// Every head with `Authorization: DPoP` (the backend checks that first) goes on to the body.
    public func admits(_ head: RequestHead) -> Bool { true }
    public func dpopChallenge(for request: Request) -> (nonce: String, wwwAuthenticate: String)? { nil }
    public func currentDPoPNonce() -> String? { nil }
}
