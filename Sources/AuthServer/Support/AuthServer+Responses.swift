import Foundation
import HTTPServer
import Logging

extension AuthServer {
    /// Adds CORS (``CORS/oauth``) and, in nonce mode, a current `DPoP-Nonce` to an answer of a script-facing endpoint.
    func finish(_ response: Response) -> Response {
        var response = response
        response.allow(.oauth)
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
