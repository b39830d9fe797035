import ATProto
import Crypto
import HTTPServer
import Logging
import Storage
import Synchronization

extension AuthServer {
    /// Seconds an authorization code is valid.
    static let codeLifetime: Int64 = 60
    static let wrongCredentialsMessage = "Wrong username or password"
    static let disabledMessage =
        "The household’s owner has disabled this account, so it cannot sign in. Ask them to enable it again."
    static let busyMessage = "Many people are signing in right now. Try again in a few seconds."
    static let busyRetrySeconds = 5

    /// `POST /oauth/authorize`: checks the form's origin and CSRF token, the rate limits, then the password, and
    /// redirects to the client with a code (or `error=access_denied` when the user refuses).
    func signIn(_ request: Request) async -> Response {
        let now = clock().unixSeconds
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
        guard let issuer = flowIssuer(pending, request), isSameOriginPost(request, issuer: issuer) else {
            return again("This form was not sent from this site. Reload the page and try again.", status: 403)
        }
        guard let csrf = form["csrf"], constantTimeEquals(Array(csrf.utf8), Array(csrfToken(for: requestURI).utf8))
        else { return again("This form has expired. Reload the page and try again.", status: 403) }

        if form["deny"] != nil {
            return finishAuthorization(requestURI, pending, issuer: issuer, now: now) { _ in
                [("error", "access_denied"), ("error_description", "The user refused access")]
            } ?? errorPage(Self.invalidLinkMessage, status: 400)
        }

        let account = try? resolveAccount(username: username)
        // A disabled account's password is checked as any other's (one hash either way, so timing tells nothing);
        // only its right password learns that the account is disabled.
        let disabled = account == nil ? (try? resolveAccount(username: username, disabled: true)) ?? nil : nil
        let secure = issuer.hasPrefix("https://")
        let attempt = attemptKeys(account: account, username: username, request: request, secure: secure, now: now)
        if let wait = throttle.withLock({ $0.wait(for: attempt.keys, now: now) }) {
            var response = again(Self.tooManyAttemptsMessage(wait: wait), status: 429)
            response.headers["Retry-After"] = String(wait)
            return response
        }
        let did: String
        switch await checkPassword(form["password"] ?? "", for: account ?? disabled) {
        case .verified where disabled != nil:
            log.info("a disabled account's holder tried to sign in", fields: ["did": disabled?.did.rawValue ?? ""])
            return again(Self.disabledMessage, status: 403)
        case .verified(let verified):
            did = verified.rawValue
            if let deviceKey = attempt.deviceKey { throttle.withLock { $0.reset(deviceKey) } }
        case .wrong:
            throttle.withLock { $0.recordFailure(attempt.keys.map(\.key), now: now) }
            return again(Self.wrongCredentialsMessage, status: 401)
        case .busy:
            var response = again(Self.busyMessage, status: 503)
            response.headers["Retry-After"] = String(Self.busyRetrySeconds)
            return response
        }
        let code = SecureRandom.token(byteCount: 32)
        let redirect = finishAuthorization(requestURI, pending, issuer: issuer, now: now) {
            try $0.execute(
                """
                INSERT INTO codes (hash, did, client_id, redirect_uri, scope, code_challenge, jkt, issuer, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    Self.tokenHash(code), did, pending.clientID, pending.redirectURI, pending.scope,
                    pending.codeChallenge, pending.jkt, issuer, now + Self.codeLifetime,
                ])
            return [("code", code)]
        }
        guard var redirect else { return errorPage(Self.invalidLinkMessage, status: 400) }
        guard redirect.status == .seeOther else { return redirect }
        redirect.headers.add(
            "Set-Cookie", deviceCookieHeader(adding: did, to: request, secure: secure, now: now))
        return redirect
    }

    /// The issuer of a pending request: the origin its PAR named, or for a request pushed before origins were
    /// recorded, the origin this form was sent to.
    func flowIssuer(_ pending: PendingRequest, _ request: Request) -> String? {
        pending.issuer.isEmpty ? issuer(of: request) : pending.issuer
    }

    /// Consumes the pending request, runs `outcome` in the same transaction, and redirects to the client with its
    /// parameters plus `state` and `iss`. Nil when the request was used or expired in the meantime.
    private func finishAuthorization(
        _ requestURI: String, _ pending: PendingRequest, issuer: String, now: Int64,
        outcome: (Connection) throws -> [(String, String)]
    ) -> Response? {
        let parameters: [(String, String)]?
        do {
            parameters = try database.write { connection -> [(String, String)]? in
                guard try Self.consumeRequest(requestURI, connection, now: now) else { return nil }
                return try outcome(connection)
            }
        } catch {
            log.error("sign-in could not be stored: \(error)")
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
