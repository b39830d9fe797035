import HTTPServer

/// Headers every response carries, pages, JSON, images and errors alike, added by the server itself. A page's CSP
/// and Cross-Origin-Opener-Policy are the front's: it knows the origin and the page's sources; other HTML gets the
/// strict default.
enum SecurityHeaders {
    static let baseline: HTTPHeaders = [
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "strict-origin-when-cross-origin",
        "Permissions-Policy": "camera=(), microphone=(), geolocation=()",
    ]

    /// HTML without a CSP of its own (the router's own error pages) gets this one.
    struct DefaultPolicy: Middleware {
        static let header =
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
            + "form-action 'self'; frame-ancestors 'none'"

        func handle(_ request: Request, next: Handler) async throws -> Response {
            var response = try await next(request)
            if response.headers["Content-Type"]?.hasPrefix("text/html") == true, response.headers["Content-Security-Policy"] == nil {
                response.headers["Content-Security-Policy"] = Self.header
            }
            return response
        }
    }
}
