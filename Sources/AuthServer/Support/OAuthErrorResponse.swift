import HTTPServer

/// An RFC 6749 / RFC 9449 error answered as `400 {"error", "error_description"}` by the PAR, token and revocation
/// endpoints (hatk answers 500 for several of these; clients expect 400).
struct OAuthErrorResponse: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `error` code.
    enum Code: String, Sendable {
        case invalidRequest = "invalid_request"
        case invalidClient = "invalid_client"
        case invalidGrant = "invalid_grant"
        case invalidScope = "invalid_scope"
        case unsupportedGrantType = "unsupported_grant_type"
        case unsupportedResponseType = "unsupported_response_type"
        case invalidDPoPProof = "invalid_dpop_proof"
        case useDPoPNonce = "use_dpop_nonce"
    }

    var code: Code
    /// Safe to show the client: it never contains a token or a password.
    var message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    var description: String { "\(code.rawValue): \(message)" }

    static func invalidRequest(_ message: String) -> OAuthErrorResponse { OAuthErrorResponse(.invalidRequest, message) }
    static func invalidGrant(_ message: String) -> OAuthErrorResponse { OAuthErrorResponse(.invalidGrant, message) }
    static func invalidClient(_ message: String) -> OAuthErrorResponse { OAuthErrorResponse(.invalidClient, message) }
    static func invalidProof(_ message: String) -> OAuthErrorResponse { OAuthErrorResponse(.invalidDPoPProof, message) }

    /// The JSON error response; CORS and nonce headers are added by the caller.
    var response: Response {
        Response.json(Body(error: code.rawValue, error_description: message), status: .badRequest)
    }

    private struct Body: Encodable {
        var error: String
        var error_description: String
    }
}

/// A failure of the server's own setup or storage (not something a client did).
public struct AuthServerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, without secrets.
    public var description: String

    init(_ description: String) {
        self.description = description
    }
}
