import ATProto
import Crypto
import Foundation
import HTTPServer
import HatkClient

/// Signing in and out: the OAuth dance against the upstream, and the browser session it leaves behind.
extension Front {
    struct SignInRequired: Error {}

    func registerAccountRoutes(on router: inout Router) {
        router.on(.get, SiteURL.login.path) { [self] request in try self.loginForm(request) }
        router.on(.post, SiteURL.login.path) { [self] request in try await self.startSignIn(request) }
        router.on(.get, SiteURL.authCallback.path) { [self] request in try await self.finishSignIn(request) }
        router.on(.post, SiteURL.logout.path) { [self] request in try await self.logout(request) }
        router.on(.get, SiteURL.clientMetadata.path) { [self] _ in try self.clientMetadata() }
        registerStoryWriteRoutes(on: &router)
    }

    /// Renders a page holding a form: the model gets the visitor's CSRF token, which is set as a cookie
    /// first when the visitor has none yet.
    func formPage<Model: Encodable>(
        _ request: Request, _ template: String, title: String, status: HTTPStatus = .ok, scripts: [String] = [],
        model: (String) throws -> Model
    ) throws -> Response {
        let token = cookies.csrfToken(for: request)
        return token.attach(
            to: try pages.render(template, title: title, model: try model(token.value), status: status, scripts: scripts))
    }

    /// The signed-in session of this request, if its cookie names a live one.
    func currentSession(_ request: Request) throws -> BrowserSession? {
        guard let id = request.cookies[cookies.sessionName], !id.isEmpty else { return nil }
        return try sessions.session(id: id, now: unixNow)
    }

    var unixNow: Int64 { clock().microseconds / 1_000_000 }

    struct LoginModel: Encodable {
        var csrf: String
        var next: String
        var handle: String
        var error: String?
    }

    func loginForm(
        _ request: Request, error: String? = nil, handle: String = "", status: HTTPStatus = .ok
    ) throws
        -> Response
    {
        let next = SiteURL.localPath(request.query("next")) ?? SiteURL.home.path
        if error == nil, try currentSession(request) != nil { return .redirect(to: next) }
        let shownHandle = handle.isEmpty ? (request.query("handle") ?? "") : handle
        return try formPage(request, "login", title: "Sign in", status: status) { csrf in
            LoginModel(csrf: csrf, next: next, handle: shownHandle, error: error)
        }
    }

    func startSignIn(_ request: Request) async throws -> Response {
        let form = try request.urlEncodedForm()
        try cookies.checkCSRF(request, formToken: form["csrf"], origin: try connected.origin)
        let handle = (form["handle"] ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        let next = SiteURL.localPath(form["next"]) ?? SiteURL.home.path
        var retry = request
        retry.query = "next=\(SiteURL.queryComponent(next))"
        do {
            let (url, pending) = try await connected.oauth.beginSignIn(loginHint: handle.isEmpty ? nil : handle)
            try sessions.savePending(pending, next: next)
            return .redirect(to: url.absoluteString)
        } catch let error as OAuthError {
            FileHandle.standardError.write(Data("sign-in could not start: \(error)\n".utf8))
            let message =
                error.code == "unreachable"
                ? "The sign-in server could not be reached. Try again in a moment."
                : "Sign-in could not start (\(error.code)). Check the handle and try again."
            return try loginForm(retry, error: message, handle: handle, status: .badGateway)
        }
    }

    func finishSignIn(_ request: Request) async throws -> Response {
        guard let state = request.query("state"), let (pending, next) = try sessions.takePending(state: state) else {
            return try loginForm(request, error: "This sign-in link has expired or was already used. Please sign in again.", status: .badRequest)
        }
        if let error = request.query("error") {
            let message = error == "access_denied" ? "Sign-in was cancelled." : "Sign-in failed (\(error)). Please try again."
            return try loginForm(request, error: message, status: .badRequest)
        }
        guard let code = request.query("code") else {
            return try loginForm(request, error: "The sign-in server sent no code. Please try again.", status: .badRequest)
        }
        let tokens: TokenSet
        do {
            tokens = try await connected.oauth.completeSignIn(pending: pending, code: code, issuer: request.query("iss"))
        } catch let error as OAuthError {
            FileHandle.standardError.write(Data("sign-in could not finish: \(error.code)\n".utf8))
            return try loginForm(request, error: "Sign-in could not be completed. Please try again.", status: .badRequest)
        }
        // A fresh id at every sign-in: an id planted before sign-in never becomes a signed-in session.
        let sessionID = SecureRandom.token(byteCount: 32)
        let session = BrowserSession(
            idHash: SessionStore.hash(sessionID), did: tokens.subject, handle: tokens.handle ?? tokens.subject,
            tokens: tokens, dpopKey: pending.dpopKey)
        try sessions.save(session, now: unixNow)
        if let old = request.cookies[cookies.sessionName] { try sessions.delete(idHash: SessionStore.hash(old)) }
        var response = Response.redirect(to: next)
        response.headers.add("Set-Cookie", cookies.setCookie(cookies.sessionName, sessionID, maxAge: Int(SessionStore.lifetime)))
        return response
    }

    func logout(_ request: Request) async throws -> Response {
        let form = try request.urlEncodedForm()
        try cookies.checkCSRF(request, formToken: form["csrf"], origin: try connected.origin)
        if let session = try currentSession(request) {
            if let refresh = session.tokens.refreshToken {
                await (try connected).oauth.revoke(refresh, dpopKey: session.dpopKey)
            }
            try sessions.delete(idHash: session.idHash)
        }
        var response = Response.redirect(to: SiteURL.home.path)
        response.headers.add("Set-Cookie", cookies.clearCookie(cookies.sessionName))
        return response
    }

    /// Credentials for a write, refreshed first when the access token is about to expire. A dead grant
    /// ends the session, and the person is asked to sign in again.
    func credentials(for session: BrowserSession) async throws -> DPoPCredentials {
        var tokens = session.tokens
        if tokens.needsRefresh(now: unixNow) {
            let oauth = try connected.oauth
            let sessions = self.sessions
            let counter = self
            let now = unixNow
            do {
                tokens = try await refreshes.refresh(sessionID: session.idHash) {
                    // Re-read: another request may have refreshed (and rotated the token) just before us.
                    let current = try sessions.session(idHash: session.idHash, now: now)?.tokens ?? session.tokens
                    if !current.needsRefresh(now: now) { return current }
                    let refreshed = try await oauth.refresh(current, dpopKey: session.dpopKey)
                    counter.refreshCount.add(1, ordering: .relaxed)
                    var updated = session
                    updated.tokens = refreshed
                    try sessions.save(updated, now: now)
                    return refreshed
                }
            } catch let error as OAuthError where error.isInvalidGrant {
                try sessions.delete(idHash: session.idHash)
                throw SignInRequired()
            }
        }
        return DPoPCredentials(dpopKey: session.dpopKey, accessToken: tokens.accessToken)
    }

    func clientMetadata() throws -> Response {
        let upstream = try connected
        let metadata: [String: JSONValue] = [
            "client_id": .string(upstream.oauth.clientID),
            "client_name": .string("grain-stories"),
            "client_uri": .string(upstream.origin),
            "application_type": .string("web"),
            "redirect_uris": .array([.string(upstream.oauth.redirectURI)]),
            "grant_types": .array([.string("authorization_code"), .string("refresh_token")]),
            "response_types": .array([.string("code")]),
            "scope": .string(upstream.oauth.scope),
            "token_endpoint_auth_method": .string("none"),
            "dpop_bound_access_tokens": .bool(true),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let body = try encoder.encode(JSONValue.object(metadata))
        var response = Response(status: .ok, headers: ["Content-Type": "application/json"], body: .bytes(Array(body)))
        response.headers["Access-Control-Allow-Origin"] = "*"
        response.headers["Cache-Control"] = "public, max-age=300"
        return response
    }
}
