import Crypto
import HTTPServer

/// Our cookies: the session id, the CSRF token every form echoes back (double submit), the sign-in binding, and a
/// paired screen's credential.
/// Over HTTPS they take the `__Host-` prefix and `Secure`, which pins them to this exact origin.
struct CookieSettings: Sendable {
    let secure: Bool

    var sessionName: String { secure ? "__Host-gs_session" : "gs_session" }
    var csrfName: String { secure ? "__Host-gs_csrf" : "gs_csrf" }
    /// Ties a sign-in in progress to the browser that started it, for the ten minutes it may take.
    var signInName: String { secure ? "__Host-gs_signin" : "gs_signin" }
    /// A paired screen's credential: long-lived, read only for the kiosk and its photos.
    var screenName: String { secure ? "__Host-gs_screen" : "gs_screen" }

    func setCookie(_ name: String, _ value: String, maxAge: Int) -> String {
        "\(name)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    }

    func clearCookie(_ name: String) -> String { setCookie(name, "", maxAge: 0) }

    /// The request's CSRF token, or a fresh one that sets its cookie on the page that carries it.
    func csrfToken(for request: Request) -> CSRFToken {
        if let existing = request.cookie(csrfName), existing.count >= 32 { return CSRFToken(value: existing, setCookie: nil) }
        let token = SecureRandom.token(byteCount: 32)
        return CSRFToken(value: token, setCookie: setCookie(csrfName, token, maxAge: 60 * 60 * 24 * 30))
    }

    /// A POST must carry the cookie's token in its form and come from our own origin.
    ///
    /// `Origin: null` is refused like a foreign origin: browsers send it from sandboxed frames, `data:` pages
    /// and some cross-origin redirects, none of which is one of our pages.
    func checkCSRF(_ request: Request, formToken: String?, origin: String) throws(HTTPError) {
        if let site = request.headers["Sec-Fetch-Site"], site != "same-origin", site != "none" {
            throw HTTPError(.forbidden, "This form was sent from another site, so it was refused.")
        }
        if let sentOrigin = request.headers["Origin"], sentOrigin.lowercased() != origin.lowercased() {
            throw HTTPError(.forbidden, "This form was sent from another site, so it was refused.")
        }
        guard let cookie = request.cookie(csrfName), let formToken,
            constantTimeEquals(Array(cookie.utf8), Array(formToken.utf8))
        else {
            throw HTTPError(.forbidden, "This form has expired. Go back, reload the page and try again.")
        }
    }
}

/// A CSRF token for a page to carry, and the cookie that must go out with that page when the visitor had none.
struct CSRFToken: Sendable {
    var value: String
    var setCookie: String?

    /// `response` with the token's cookie, when the token is new.
    func attach(to response: Response) -> Response {
        guard let setCookie else { return response }
        var response = response
        response.headers.add("Set-Cookie", setCookie)
        return response
    }
}
