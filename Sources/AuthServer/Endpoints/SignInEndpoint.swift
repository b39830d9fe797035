import ATProto
import Crypto
import HTTPServer
import Logging
import Storage
import WebAddresses

/// `POST /oauth/authorize`: checks the form's origin and CSRF token, the rate limits, then the password, and
/// redirects to the client with a code (or `error=access_denied` when the user refuses).
struct SignInEndpoint: Sendable {
    static let wrongCredentialsMessage = "Wrong username or password"
    static let disabledMessage =
        "The household’s owner has disabled this account, so it cannot sign in. Ask them to enable it again."
    static let busyMessage = "Many people are signing in right now. Try again in a few seconds."
    static let busyRetrySeconds = 5

    let pending: PendingRequests
    let pages: SignInPages
    let passwords: PasswordStore
    let limiter: SignInLimiter
    /// Remembers the account on the browser after a sign-in, which exempts it from the account's limits later.
    let cookies: DeviceCookies
    let origins: OwnOrigins
    let clock: @Sendable () -> UTCTime

    func respond(to request: Request) async -> Response {
        let now = clock().unixSeconds
        guard let form = try? request.urlEncodedForm() else {
            return pages.errorPage("The sign-in form could not be read. Go back to the app and start again.", status: 400)
        }
        let requestURI = form["request_uri"] ?? ""
        guard let pending = try? pending.find(requestURI, now: now) else {
            return pages.errorPage(SignInPages.invalidLinkMessage, status: 400)
        }
        let username = PasswordStore.normalizedUsername(form["username"] ?? "")
        func again(_ message: String, status: Int) -> Response {
            pages.page(
                SignInPage(
                    requestURI: requestURI, clientName: pages.clientName(pending),
                    loginHint: username.isEmpty ? nil : username, error: message,
                    csrfToken: pages.csrfToken(for: requestURI), status: status))
        }
        guard let issuer = flowIssuer(pending, request), Self.isSameOriginPost(request, issuer: issuer) else {
            return again("This form was not sent from this site. Reload the page and try again.", status: 403)
        }
        guard let csrf = form["csrf"],
            constantTimeEquals(Array(csrf.utf8), Array(pages.csrfToken(for: requestURI).utf8))
        else { return again("This form has expired. Reload the page and try again.", status: 403) }

        if form["deny"] != nil {
            return finishAuthorization(requestURI, pending, issuer: issuer, now: now) { _ in
                [("error", "access_denied"), ("error_description", "The user refused access")]
            } ?? pages.errorPage(SignInPages.invalidLinkMessage, status: 400)
        }

        let account = try? passwords.resolveAccount(username: username)
        // A disabled account's password is checked as any other's (one hash either way, so timing tells nothing);
        // only its right password learns that the account is disabled.
        let disabled = account == nil ? (try? passwords.resolveAccount(username: username, disabled: true)) ?? nil : nil
        let secure = issuer.hasPrefix("https://")
        let attempt = limiter.attemptKeys(account: account, username: username, request: request, secure: secure, now: now)
        if let wait = limiter.wait(for: attempt, now: now) {
            var response = again(SignInLimiter.tooManyAttemptsMessage(wait: wait), status: 429)
            response.headers["Retry-After"] = String(wait)
            return response
        }
        let did: String
        switch await passwords.checkPassword(form["password"] ?? "", for: account ?? disabled) {
        case .verified where disabled != nil:
            log.info("a disabled account's holder tried to sign in", fields: ["did": disabled?.did.rawValue ?? ""])
            return again(Self.disabledMessage, status: 403)
        case .verified(let verified):
            did = verified.rawValue
            limiter.recordSuccess(of: attempt)
        case .wrong:
            limiter.recordFailure(of: attempt, now: now)
            return again(Self.wrongCredentialsMessage, status: 401)
        case .busy:
            var response = again(Self.busyMessage, status: 503)
            response.headers["Retry-After"] = String(Self.busyRetrySeconds)
            return response
        }
        let code = SecureRandom.token(byteCount: 32)
        let redirect = finishAuthorization(requestURI, pending, issuer: issuer, now: now) {
            try GrantStore.storeCode(code, did: did, for: pending, issuer: issuer, now: now, in: $0)
            return [("code", code)]
        }
        guard var redirect else { return pages.errorPage(SignInPages.invalidLinkMessage, status: 400) }
        guard redirect.status == .seeOther else { return redirect }
        redirect.headers.add(
            "Set-Cookie", cookies.setCookieHeader(adding: did, to: request, secure: secure, now: now))
        return redirect
    }

    /// The issuer of a pending request: the origin its PAR named, or for a request pushed before origins were
    /// recorded, the origin this form was sent to.
    private func flowIssuer(_ pending: PendingRequest, _ request: Request) -> String? {
        pending.issuer.isEmpty ? origins.issuer(of: request) : pending.issuer
    }

    /// Consumes the pending request, runs `outcome` in the same transaction, and redirects to the client with its
    /// parameters plus `state` and `iss`. Nil when the request was used or expired in the meantime.
    private func finishAuthorization(
        _ requestURI: String, _ pending: PendingRequest, issuer: String, now: Int64,
        outcome: (Connection) throws -> [(String, String)]
    ) -> Response? {
        let parameters: [(String, String)]?
        do {
            parameters = try self.pending.consume(requestURI, now: now, then: outcome)
        } catch {
            log.error("sign-in could not be stored: \(error)")
            return pages.errorPage("Something went wrong. Go back to the app and start again.", status: 500)
        }
        guard let parameters else { return nil }
        let location = RedirectURL.appending(
            parameters + [("state", pending.state), ("iss", issuer)], to: pending.redirectURI)
        var response = Response.redirect(to: location)
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// A state-changing POST from our own sign-in page: `Sec-Fetch-Site` must not say another site sent it, and
    /// `Origin` (or, without it, `Sec-Fetch-Site: same-origin`) must name the flow's issuer, the origin the page
    /// was served under.
    static func isSameOriginPost(_ request: Request, issuer: String) -> Bool {
        let site = request.headers["Sec-Fetch-Site"]?.lowercased()
        if let site, site != "same-origin" { return false }
        if let origin = request.headers["Origin"] {
            guard let sent = Origin(origin), let ours = Origin(issuer) else { return false }
            return sent == ours
        }
        return site == "same-origin"
    }
}
