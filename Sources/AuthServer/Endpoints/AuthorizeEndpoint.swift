import ATProto
import HTTPServer

/// `GET /oauth/authorize?request_uri&client_id`: the sign-in page for a pending pushed request.
struct AuthorizeEndpoint: Sendable {
    let pending: PendingRequests
    let pages: SignInPages
    /// Resolves the client's `login_hint` to the account's handle.
    let passwords: PasswordStore
    let clock: @Sendable () -> UTCTime

    func respond(to request: Request) -> Response {
        let now = clock().unixSeconds
        guard let requestURI = request.query("request_uri"),
            let pending = try? pending.find(requestURI, now: now),
            request.query("client_id") == pending.clientID
        else { return pages.errorPage(SignInPages.invalidLinkMessage, status: 400) }
        let hint = pending.loginHint.flatMap { try? passwords.resolveAccount(username: $0) }?.handle
        return pages.page(
            SignInPage(
                requestURI: requestURI, clientName: pages.clientName(pending), loginHint: hint,
                csrfToken: pages.csrfToken(for: requestURI)))
    }
}
