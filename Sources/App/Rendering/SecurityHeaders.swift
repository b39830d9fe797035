import HTTPServer

/// Headers every response carries, and the strict nonce-based CSP of HTML pages.
struct SecurityHeaders: Middleware {
    static func contentSecurityPolicy(nonce: String?) -> String {
        let scripts = nonce.map { "'self' 'nonce-\($0)'" } ?? "'self'"
        return "default-src 'self'; script-src \(scripts); style-src 'self'; img-src 'self' data: https:; "
            + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    }

    /// The policy with `frame-ancestors` opened to `origins` (the kiosk on a wall dashboard); unchanged when empty.
    static func allowingFrames(_ policy: String, from origins: [String]) -> String {
        guard !origins.isEmpty else { return policy }
        return policy.replacingOccurrences(
            of: "frame-ancestors 'none'", with: "frame-ancestors " + origins.joined(separator: " "))
    }

    func handle(_ request: Request, next: Handler) async throws -> Response {
        Self.apply(to: try await next(request))
    }

    /// Also used by the error responder, whose answers (404 for unknown paths) bypass middleware.
    static func apply(to original: Response) -> Response {
        var response = original
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "strict-origin-when-cross-origin"
        response.headers["Cross-Origin-Opener-Policy"] = "same-origin"
        response.headers["Permissions-Policy"] = "camera=(), microphone=(), geolocation=()"
        let isHTML = response.headers["Content-Type"]?.hasPrefix("text/html") ?? false
        if isHTML && response.headers["Content-Security-Policy"] == nil {
            response.headers["Content-Security-Policy"] = contentSecurityPolicy(nonce: nil)
        }
        return response
    }
}
