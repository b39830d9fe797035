import HTTPServer

/// Headers every response carries, pages and backend alike. The CSP and Cross-Origin-Opener-Policy of pages are
/// the front's (it knows the origin and the page's nonce).
struct SecurityHeaders: Middleware {
    func handle(_ request: Request, next: Handler) async throws -> Response {
        Self.apply(to: try await next(request))
    }

    /// Also used by the error responder, whose answers (404 for unknown paths) bypass middleware.
    static func apply(to original: Response) -> Response {
        var response = original
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "strict-origin-when-cross-origin"
        response.headers["Permissions-Policy"] = "camera=(), microphone=(), geolocation=()"
        let isHTML = response.headers["Content-Type"]?.hasPrefix("text/html") ?? false
        if isHTML && response.headers["Content-Security-Policy"] == nil {
            response.headers["Content-Security-Policy"] = ContentPolicyDefault.header
        }
        return response
    }
}

/// The policy of an HTML answer that did not set its own.
enum ContentPolicyDefault {
    static let header =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
        + "form-action 'self'; frame-ancestors 'none'"
}
