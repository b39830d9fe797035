import Foundation
import HTTPServer

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

    /// Runs an OAuth endpoint: `OAuthError`s become their 400 JSON; anything else is our fault, logged, and a 500
    /// `server_error` that reveals nothing.
    func handleOAuth(_ endpoint: String, _ body: () throws -> Response) -> Response {
        do {
            return try body()
        } catch let error as OAuthError {
            return error.response
        } catch {
            AuthLog.error("\(endpoint) failed: \(error)")
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

/// One-line diagnostics on stderr. Callers pass reasons and ids only: never tokens, proofs, passwords or keys.
enum AuthLog {
    static func warning(_ message: String) {
        write("auth: warning: " + message)
    }

    static func error(_ message: String) {
        write("auth: error: " + message)
    }

    private static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
