/// Why a call to the hatk server failed, in words a person can act on.
public struct HatkError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Nothing answered at the address (refused, DNS, reset).
        case unreachable
        /// The server did not answer within the configured timeout.
        case timeout
        /// The server answered with an error status and hatk's `{"error": …}` body (or none).
        case http(status: Int, error: String)
        /// The server answered 2xx with a body that is not the expected JSON.
        case malformed
        /// The server answered without `Content-Type: application/json`: a hatk serving a web app answers an XRPC
        /// method it does not have with its HTML page (and 200). Treat the method as unavailable there.
        case notJSON(status: Int, contentType: String)
    }

    public let kind: Kind
    public let endpoint: String
    /// More for logs: the transport's reason, or the `message` an error body carried.
    public let detail: String

    public init(kind: Kind, endpoint: String, detail: String = "") {
        self.kind = kind
        self.endpoint = endpoint
        self.detail = detail
    }

    public var description: String {
        switch kind {
        case .unreachable: return "The story server could not be reached (\(endpoint)). \(detail)"
        case .timeout: return "The story server took too long to answer (\(endpoint))."
        case .http(let status, let error): return "The story server answered \(status) \(error) (\(endpoint))."
        case .malformed: return "The story server sent an answer we could not read (\(endpoint)). \(detail)"
        case .notJSON(let status, let contentType):
            return "The story server answered \(status) with \(contentType), not JSON: it does not seem to offer \(endpoint)."
        }
    }

    /// Worth offering a retry: the upstream may come back.
    public var isTransient: Bool {
        switch kind {
        case .unreachable, .timeout, .malformed: return true
        case .http(let status, let error): return status >= 500 && error != Self.authenticationRequired
        case .notJSON: return false
        }
    }

    static let authenticationRequired = "Authentication required"

    /// The call needs a signed-in person, or a fresh grant: hatk's core routes answer 401, its custom handlers a 500
    /// (a plain `Error`) or a 400 (`InvalidRequestError`) with "Authentication required", and a token missing a scope
    /// gets `ScopeMissingError` (401, or 403 as hatk's own browser client expects). Sign in again.
    public var needsSignIn: Bool {
        guard case .http(let status, let error) = kind else { return false }
        if status == 401 { return true }
        if error == "ScopeMissingError" { return true }
        return [400, 500].contains(status) && error == Self.authenticationRequired
    }

    /// The server does not offer this method (an HTML page where JSON was due, or an XRPC 404 for the method).
    public var isUnsupportedMethod: Bool {
        switch kind {
        case .notJSON: return true
        case .http(let status, let error): return status == 404 && error.hasPrefix("Method not found")
        default: return false
        }
    }
}
