import ATProto
import Crypto
import HTTPServer
import WebAddresses

extension AuthServer {
    static let invalidLinkMessage = "This sign-in link is invalid or has expired. Go back to the app and start again."

    /// `GET /oauth/authorize?request_uri&client_id`: the sign-in page for a pending pushed request.
    func authorizePage(_ request: Request) -> Response {
        let now = clock().unixSeconds
        guard let requestURI = request.query("request_uri"),
            let pending = try? pendingRequest(requestURI, now: now),
            request.query("client_id") == pending.clientID
        else { return errorPage(Self.invalidLinkMessage, status: 400) }
        let hint = pending.loginHint.flatMap { try? resolveAccount(username: $0) }?.handle
        return page(
            SignInPage(
                requestURI: requestURI, clientName: clientName(pending), loginHint: hint,
                csrfToken: csrfToken(for: requestURI)))
    }

    /// A page without a form, for links that cannot be used.
    func errorPage(_ message: String, status: Int) -> Response {
        page(SignInPage(requestURI: "", clientName: "", error: message, csrfToken: "", status: status))
    }

    /// Renders with the app's template and adds the headers every sign-in page needs.
    func page(_ model: SignInPage) -> Response {
        var response = renderSignIn(model)
        response.status = HTTPStatus(code: model.status)
        response.headers["Cache-Control"] = "no-store"
        // A password form must never be framed by another site (clickjacking).
        response.headers["X-Frame-Options"] = "DENY"
        // Its URL (with the request_uri) goes to no other site; not "no-referrer", under which Chromium sends the
        // form's POST with `Origin: null`, which the same-origin check must refuse (found by the deployment suite).
        response.headers["Referrer-Policy"] = "same-origin"
        return response
    }

    func clientName(_ pending: PendingRequest) -> String {
        (try? clients.resolve(clientID: pending.clientID, redirectURI: pending.redirectURI))?.name ?? pending.clientID
    }

    /// HMAC of the request URI under a stored secret: bound to this request, unforgeable without the secret, and
    /// needing no server-side session.
    func csrfToken(for requestURI: String) -> String {
        Base64URL.encode(HMACSHA256.authenticationCode(for: Array(("csrf " + requestURI).utf8), key: macSecret))
    }

    /// A state-changing POST from our own sign-in page: `Sec-Fetch-Site` must not say another site sent it, and
    /// `Origin` (or, without it, `Sec-Fetch-Site: same-origin`) must name the flow's issuer, the origin the page
    /// was served under.
    func isSameOriginPost(_ request: Request, issuer: String) -> Bool {
        let site = request.headers["Sec-Fetch-Site"]?.lowercased()
        if let site, site != "same-origin" { return false }
        if let origin = request.headers["Origin"] {
            guard let sent = Origin(origin), let ours = Origin(issuer) else { return false }
            return sent == ours
        }
        return site == "same-origin"
    }

    /// `url` with `parameters` appended to its query, values percent-encoded.
    static func redirectURL(_ url: String, _ parameters: [(String, String)]) -> String {
        let query = parameters.map { "\($0.0)=\(percentEncoded($0.1))" }.joined(separator: "&")
        return url + (url.contains("?") ? "&" : "?") + query
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters.
    static func percentEncoded(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            let unreserved =
                (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            if unreserved {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
