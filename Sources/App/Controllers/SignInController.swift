import ATProto
import Crypto
import Foundation
import FrontState
import HTTPServer
import HatkClient
import Logging

/// Signing in and out: the OAuth dance against the authorization server, and the browser session it leaves.
struct SignInController: Sendable {
    let pages: PageRenderer
    let sessions: any SessionStoring
    let servers: SignInServers
    let clientAddress: @Sendable (Request) -> String?
    /// Sign-ins one client address may start per minute: each costs a PAR upstream and a row here.
    let limiter: any RateLimiting
    /// An example handle for the form's placeholder, in this server's handle domain, never a real member's.
    let handleExample: String

    struct LoginModel: Encodable {
        var csrf: String
        var next: String
        var handle: String
        var error: String?
        var handleExample: String
    }

    /// `GET /login`.
    func loginForm(_ context: RequestContext) async throws -> Response {
        let next = SiteURL.localPath(context.query("next")) ?? SiteURL.home.path
        if context.session != nil { return .redirect(to: next) }
        return try form(context, next: next, handle: context.query("handle") ?? "")
    }

    func form(
        _ context: RequestContext, next: String, handle: String, error: String? = nil, status: HTTPStatus = .ok
    ) throws
        -> Response
    {
        let model = LoginModel(
            csrf: context.csrf.value, next: next, handle: String(handle.prefix(253)), error: error, handleExample: handleExample)
        return try pages.render("login", title: "Sign in", model: model, status: status, form: true, context: context)
    }

    /// `POST /login`: pushes the authorization request and sends the browser to the authorization server,
    /// with a short-lived cookie that ties the coming callback to this browser.
    func startSignIn(_ context: RequestContext) async throws -> Response {
        let handle = (context.form["handle"] ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        let next = SiteURL.localPath(context.form["next"]) ?? SiteURL.home.path
        if case .limited(let wait) = try limiter.admit(clientAddress(context.request) ?? "unknown", now: context.unixNow) {
            var response = try form(
                context, next: next, handle: handle,
                error: "Many sign-ins were started from here in the last minute. Wait \(wait) seconds, then try again.",
                status: .tooManyRequests)
            response.headers["Retry-After"] = String(wait)
            return response
        }
        do {
            let (url, pending) = try await servers.client(for: context.origin).beginSignIn(
                loginHint: handle.isEmpty ? nil : String(handle.prefix(253)))
            let browser = SecureRandom.token(byteCount: 24)
            try sessions.savePending(pending, next: next, browser: browser)
            var response = Response.redirect(to: url.absoluteString)
            response.headers.add(
                "Set-Cookie", context.cookies.setCookie(context.cookies.signInName, browser, maxAge: Int(BrowserSession.pendingLifetime)))
            return response
        } catch let error as OAuthError {
            log.warning("sign-in could not start: \(error)")
            return try form(context, next: next, handle: handle, error: Self.startFailure(error, origin: context.origin), status: .badGateway)
        }
    }

    /// What to tell a person whose sign-in could not start, in words they can act on.
    static func startFailure(_ error: OAuthError, origin: String) -> String {
        switch error.code {
        case "unreachable": "The sign-in server could not be reached. Try again in a moment."
        case "invalid_client":
            "The sign-in server does not know this site’s address (\(origin)). Whoever runs it must add "
                + "\(origin)\(SiteURL.clientMetadata.path) to its clients, or open this site at the address it knows."
        default: "Sign-in could not start. Check the handle and try again."
        }
    }

    /// `GET /auth/callback`: the authorization server sends the browser back here with a code.
    func finishSignIn(_ context: RequestContext) async throws -> Response {
        let home = SiteURL.home.path
        guard let state = context.query("state") else {
            return try form(context, next: home, handle: "", error: "This sign-in link is incomplete. Please sign in again.", status: .badRequest)
        }
        let browser = context.request.cookie(context.cookies.signInName)
        let (pending, next): (PendingAuthorization, String)
        switch try sessions.takePending(state: state, browser: browser) {
        case .success(let taken): (pending, next) = taken
        case .failure(.unknown):
            return try form(
                context, next: home, handle: "", error: "This sign-in link has expired or was already used. Please sign in again.",
                status: .badRequest)
        case .failure(.otherBrowser):
            // Someone else's sign-in link: finishing it would sign this browser in to their account.
            return try form(
                context, next: home, handle: "",
                error: "This sign-in was started in another browser, so it was not finished here. Sign in from this page.",
                status: .forbidden)
        }
        if let error = context.query("error") {
            // The server's words are not shown: a crafted link could put anything there.
            let message = error == "access_denied" ? "Sign-in was cancelled." : "The sign-in server could not sign you in. Please try again."
            return try form(context, next: next, handle: "", error: message, status: .badRequest)
        }
        guard let code = context.query("code") else {
            return try form(context, next: next, handle: "", error: "The sign-in server sent no code. Please try again.", status: .badRequest)
        }
        let tokens: TokenSet
        do {
            tokens = try await servers.client(for: context.origin).completeSignIn(
                pending: pending, code: code, issuer: context.query("iss"))
        } catch {
            log.warning("sign-in could not finish: \(error.code)")
            return try form(context, next: next, handle: "", error: "Sign-in could not be completed. Please try again.", status: .badRequest)
        }
        // A fresh id at every sign-in: an id planted before sign-in never becomes a signed-in session. The old
        // session goes only once the new one is stored.
        let sessionID = SecureRandom.token(byteCount: 32)
        let session = BrowserSession(
            idHash: BrowserSession.hash(sessionID), did: tokens.subject, handle: tokens.handle ?? tokens.subject, tokens: tokens,
            dpopKey: pending.dpopKey, origin: context.origin)
        try sessions.create(session, now: context.unixNow)
        if let old = context.session { try sessions.delete(idHash: old.idHash) }
        var response = Response.redirect(to: next)
        response.headers.add("Set-Cookie", context.cookies.setCookie(context.cookies.sessionName, sessionID, maxAge: Int(BrowserSession.lifetime)))
        response.headers.add("Set-Cookie", context.cookies.clearCookie(context.cookies.signInName))
        return response
    }

    /// `POST /logout`: revokes the refresh token where the server offers it and forgets the session.
    func logout(_ context: RequestContext) async throws -> Response {
        if let session = context.session {
            if let refresh = session.tokens.refreshToken {
                await servers.client(for: session.origin.isEmpty ? context.origin : session.origin).revoke(refresh, dpopKey: session.dpopKey)
            }
            try sessions.delete(idHash: session.idHash)
        }
        var response = Response.redirect(to: SiteURL.home.with([("done", "signed-out")]))
        response.headers.add("Set-Cookie", context.cookies.clearCookie(context.cookies.sessionName))
        return response
    }

    /// `GET /oauth-client-metadata.json`: who we are as an OAuth client, on the origin it is asked on.
    func clientMetadata(_ context: RequestContext) async throws -> Response {
        let client = servers.client(for: context.origin)
        let metadata: [String: JSONValue] = [
            "client_id": .string(client.clientID),
            "client_name": .string("grain-stories"),
            "client_uri": .string(context.origin),
            "application_type": .string("web"),
            "redirect_uris": .array([.string(client.redirectURI)]),
            "grant_types": .array([.string("authorization_code"), .string("refresh_token")]),
            "response_types": .array([.string("code")]),
            "scope": .string(client.scope),
            "token_endpoint_auth_method": .string("none"),
            "dpop_bound_access_tokens": .bool(true),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var response = Response(
            status: .ok, headers: ["Content-Type": "application/json"], body: .bytes(Array(try encoder.encode(JSONValue.object(metadata)))))
        response.allow(.anyOrigin)
        response.headers["Cache-Control"] = "public, max-age=300"
        return response
    }
}

extension SignInController {
    /// The routes this controller answers, one line per method and page.
    var routes: [Route] {
        [
            Route(method: .get, page: .login, access: .anyone, handler: loginForm),
            Route(method: .post, page: .login, access: .anyone, bodyLimit: 4096, handler: startSignIn),
            Route(method: .get, page: .authCallback, access: .anyone, handler: finishSignIn),
            Route(method: .post, page: .logout, access: .anyone, bodyLimit: 4096, handler: logout),
            Route(method: .get, page: .clientMetadata, access: .anyone, handler: clientMetadata),
        ]
    }
}
