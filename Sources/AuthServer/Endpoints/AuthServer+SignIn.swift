import Crypto
import HTTPServer
import Storage

extension AuthServer {
    /// Seconds an authorization code is valid.
    static let codeLifetime: Int64 = 60
    static let wrongCredentialsMessage = "Wrong username or password"

    /// `POST /oauth/authorize`: checks the form's origin and CSRF token, the rate limits, then the password, and
    /// redirects to the client with a code (or `error=access_denied` when the user refuses).
    func signIn(_ request: Request) -> Response {
        let now = clock().seconds
        guard let form = try? request.urlEncodedForm() else {
            return errorPage("The sign-in form could not be read. Go back to the app and start again.", status: 400)
        }
        let requestURI = form["request_uri"] ?? ""
        guard let pending = try? pendingRequest(requestURI, now: now) else {
            return errorPage(Self.invalidLinkMessage, status: 400)
        }
        let username = Self.normalizedUsername(form["username"] ?? "")
        func again(_ message: String, status: Int) -> Response {
            page(
                SignInPage(
                    requestURI: requestURI, clientName: clientName(pending), loginHint: username.isEmpty ? nil : username,
                    error: message, csrfToken: csrfToken(for: requestURI), status: status))
        }
        guard isSameOriginPost(request) else {
            return again("This form was not sent from this site. Reload the page and try again.", status: 403)
        }
        guard let csrf = form["csrf"], constantTimeEquals(Array(csrf.utf8), Array(csrfToken(for: requestURI).utf8))
        else { return again("This form has expired. Reload the page and try again.", status: 403) }

        if form["deny"] != nil {
            return finishAuthorization(requestURI, pending, now: now) { _ in
                [("error", "access_denied"), ("error_description", "The user refused access")]
            } ?? errorPage(Self.invalidLinkMessage, status: 400)
        }

        let address = request.clientAddress ?? "unknown"
        let keys = ["ip:" + address, "user:" + username]
        if case .limited(let wait) = limiter.withLock({ $0.check(keys, now: now) }) {
            let minutes = max(1, (wait + 59) / 60)
            var response = again(
                "Too many attempts, try again in \(minutes) minute\(minutes == 1 ? "" : "s")", status: 429)
            response.headers["Retry-After"] = String(wait)
            return response
        }
        guard let did = verifiedAccount(username: username, password: form["password"] ?? "") else {
            limiter.withLock { $0.recordFailure(keys, now: now) }
            return again(Self.wrongCredentialsMessage, status: 401)
        }
        let code = SecureRandom.token(byteCount: 32)
        return finishAuthorization(requestURI, pending, now: now) {
            try $0.execute(
                """
                INSERT INTO codes (hash, did, client_id, redirect_uri, scope, code_challenge, jkt, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    Self.tokenHash(code), did, pending.clientID, pending.redirectURI, pending.scope,
                    pending.codeChallenge, pending.jkt, now + Self.codeLifetime,
                ])
            return [("code", code)]
        } ?? errorPage(Self.invalidLinkMessage, status: 400)
    }

    /// Consumes the pending request, runs `outcome` in the same transaction, and redirects to the client with its
    /// parameters plus `state` and `iss`. Nil when the request was used or expired in the meantime.
    private func finishAuthorization(
        _ requestURI: String, _ pending: PendingRequest, now: Int64,
        outcome: (Connection) throws -> [(String, String)]
    ) -> Response? {
        let parameters: [(String, String)]?
        do {
            parameters = try database.write { connection -> [(String, String)]? in
                guard try Self.consumeRequest(requestURI, connection, now: now) else { return nil }
                return try outcome(connection)
            }
        } catch {
            AuthLog.error("sign-in could not be stored: \(error)")
            return errorPage("Something went wrong. Go back to the app and start again.", status: 500)
        }
        guard let parameters else { return nil }
        let location = Self.redirectURL(
            pending.redirectURI, parameters + [("state", pending.state), ("iss", issuer)])
        var response = Response.redirect(to: location)
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}
