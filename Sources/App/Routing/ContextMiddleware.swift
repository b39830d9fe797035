import HTTPServer
import HatkClient

/// A front handler: a request with its context in, a response out.
typealias ContextHandler = @Sendable (RequestContext) async throws -> Response

/// Code that runs around every front handler once the context is filled: it may refuse the request,
/// answer it, or change the response.
protocol ContextMiddleware: Sendable {
    func handle(_ context: RequestContext, next: @escaping ContextHandler) async throws -> Response
}

extension Array where Element == any ContextMiddleware {
    /// `handler` wrapped in every middleware, the first outermost.
    func wrapping(_ handler: @escaping ContextHandler) -> ContextHandler {
        reversed().reduce(handler) { next, middleware in
            { context in try await middleware.handle(context, next: next) }
        }
    }
}

/// Every unsafe request (POST and the rest) must come from a page of ours: its form (or `X-CSRF-Token` header)
/// carries the token of the visitor's CSRF cookie, and the browser says it came from our own origin. Because
/// it runs for every unsafe route, a new form cannot forget the check.
struct CSRFMiddleware: ContextMiddleware {
    func handle(_ context: RequestContext, next: @escaping ContextHandler) async throws -> Response {
        if context.request.method != .get, context.request.method != .head, context.request.method != .options {
            let token = context.form["csrf"] ?? context.request.headers["X-CSRF-Token"]
            try context.cookies.checkCSRF(context.request, formToken: token, origin: context.origin)
        }
        return try await next(context)
    }
}

/// The share target's check in place of the CSRF token, which a share from another app cannot carry: the browser
/// must not say another site sent it. A share is a navigation the browser makes itself (`Sec-Fetch-Site: none`),
/// whose origin is opaque, so `Origin: null` passes only then. Safe because the route only stages the photo in the
/// visitor's own slot; posting it takes the create form's CSRF-checked post. (The session cookie is SameSite=Lax,
/// so another site's form post arrives without a session and is refused before its body is read.)
struct ShareTargetMiddleware: ContextMiddleware {
    func handle(_ context: RequestContext, next: @escaping ContextHandler) async throws -> Response {
        let site = context.request.headers["Sec-Fetch-Site"]
        if let site, site != "same-origin", site != "none" { throw Self.refusal }
        if let origin = context.request.headers["Origin"], origin.lowercased() != context.origin.lowercased(),
            !(origin == "null" && site == "none")
        {
            throw Self.refusal
        }
        return try await next(context)
    }

    static let refusal = HTTPError(.forbidden, "This share was sent from another site, so it was refused.")
}
