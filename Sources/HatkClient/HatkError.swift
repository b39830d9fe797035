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
    }

    public let kind: Kind
    public let endpoint: String
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
        }
    }

    /// Worth offering a retry: the upstream may come back.
    public var isTransient: Bool {
        switch kind {
        case .unreachable, .timeout, .malformed: return true
        case .http(let status, _): return status >= 500
        }
    }
}
