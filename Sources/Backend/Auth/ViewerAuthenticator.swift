import ATProto
import HTTPServer

/// Decides which account a request to the backend acts for.
///
/// Like hatk, a missing or broken credential is not an error here: the request simply has no
/// viewer, reads stay public, and writes answer 401.
public protocol ViewerAuthenticator: Sendable {
    func viewer(for request: Request) async -> DID?
    /// When the server requires DPoP nonces and this request's proof lacks a fresh one: the nonce to
    /// send and the `WWW-Authenticate` value that asks the client to retry with it.
    func dpopChallenge(for request: Request) -> (nonce: String, wwwAuthenticate: String)?
    /// The nonce every response advertises when nonces are on.
    func currentDPoPNonce() -> String?
}

extension ViewerAuthenticator {
    public func dpopChallenge(for request: Request) -> (nonce: String, wwwAuthenticate: String)? { nil }
    public func currentDPoPNonce() -> String? { nil }
}
