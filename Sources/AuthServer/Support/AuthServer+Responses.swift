import Foundation
import HTTPServer
import Logging

extension AuthServer {
    /// CORS like hatk (any origin), plus the headers a script must read: `DPoP-Nonce` and `WWW-Authenticate`.
    static let corsHeaders: HTTPHeaders = [
        "Access-Control-Allow-Origin": "*",
        // `*` does not cover Authorization (Fetch spec), which resource calls send; name it and DPoP explicitly.
        "Access-Control-Allow-Headers": "*, Authorization, DPoP, Content-Type",
        "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
        "Access-Control-Expose-Headers": "DPoP-Nonce, WWW-Authenticate",
    ]

    /// Adds CORS and, in nonce mode, a current `DPoP-Nonce` to an answer of a script-facing endpoint.
    func finish(_ response: Response) -> Response {
        var response = response
        for (name, value) in Self.corsHeaders {
            response.headers[name] = value
        }
        if let nonce = currentDPoPNonce() {
            response.headers["DPoP-Nonce"] = nonce
        }
        return response
    }

    /// Runs an OAuth endpoint: `OAuthErrorResponse`s become their 400 JSON; anything else is our fault, logged, and a 500
    /// `server_error` that reveals nothing.
    func handleOAuth(_ endpoint: String, _ body: () throws -> Response) -> Response {
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
}
