import Crypto
import HTTPServer

/// The sign-in page as the authorize page and the sign-in form both answer it: rendered with the app's template,
/// with the headers a password form needs and a CSRF token bound to its request.
struct SignInPages: Sendable {
    static let invalidLinkMessage = "This sign-in link is invalid or has expired. Go back to the app and start again."

    let render: @Sendable (SignInPage) -> Response
    let clients: ClientPolicy
    /// The HMAC key of CSRF tokens.
    let macSecret: [UInt8]

    /// Renders with the app's template and adds the headers every sign-in page needs.
    func page(_ model: SignInPage) -> Response {
        var response = render(model)
        response.status = HTTPStatus(code: model.status)
        response.headers["Cache-Control"] = "no-store"
        // A password form must never be framed by another site (clickjacking).
        response.headers["X-Frame-Options"] = "DENY"
        // Its URL (with the request_uri) goes to no other site; not "no-referrer", under which Chromium sends the
        // form's POST with `Origin: null`, which the same-origin check must refuse (found by the deployment suite).
        response.headers["Referrer-Policy"] = "same-origin"
        return response
    }

    /// A page without a form, for links that cannot be used.
    func errorPage(_ message: String, status: Int) -> Response {
        page(SignInPage(requestURI: "", clientName: "", error: message, csrfToken: "", status: status))
    }

    func clientName(_ pending: PendingRequest) -> String {
        (try? clients.resolve(clientID: pending.clientID, redirectURI: pending.redirectURI))?.name ?? pending.clientID
    }

    /// HMAC of the request URI under a stored secret: bound to this request, unforgeable without the secret, and
    /// needing no server-side session.
    func csrfToken(for requestURI: String) -> String {
        Base64URL.encode(HMACSHA256.authenticationCode(for: Array(("csrf " + requestURI).utf8), key: macSecret))
    }
}
