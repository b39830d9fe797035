import ATProto
import HTTPServer

/// Decides which account a request to the backend acts for.
///
/// Like hatk, a missing or broken credential is not an error here: the request simply has no
/// viewer, reads stay public, and writes answer 401.
public protocol ViewerAuthenticator: Sendable {
    func viewer(for request: Request) async -> DID?
}
