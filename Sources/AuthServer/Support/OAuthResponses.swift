import HTTPServer
import Logging

/// The answer shapes the script-facing endpoints share.
enum OAuthResponses {
    /// Runs an OAuth endpoint: `OAuthErrorResponse`s become their 400 JSON; anything else is our fault, logged, and a
    /// 500 `server_error` that reveals nothing.
    static func handle(_ endpoint: String, _ body: () throws -> Response) -> Response {
        do {
            return try body()
        } catch let error as OAuthErrorResponse {
            return error.response
        } catch {
            log.error("\(endpoint) failed: \(error)")
            return Response.json(
                ["error": "server_error", "error_description": "Internal error"], status: .internalServerError)
        }
    }

    /// JSON that must never be cached (tokens, request URIs).
    static func noStoreJSON<T: Encodable>(_ value: T, status: HTTPStatus = .ok) -> Response {
        var response = Response.json(value, status: status)
        response.headers["Cache-Control"] = "no-store"
        response.headers["Pragma"] = "no-cache"
        return response
    }

    /// `temporarily_unavailable` (RFC 6749 §4.1.2.1) with `Retry-After`, for a client that should come back later.
    static func unavailable(status: HTTPStatus, retryAfter: Int64) -> Response {
        var response = Response.json(
            [
                "error": "temporarily_unavailable",
                "error_description": "Too many sign-in requests; try again in \(retryAfter) seconds",
            ], status: status)
        response.headers["Retry-After"] = String(retryAfter)
        return response
    }
}
