/// Why a read failed, whichever reader was asked: a hatk over HTTP or the embedded backend in process. The front tells
/// these apart (a sign-in to offer, a method the upstream lacks, a retry page), never an HTTP client's error.
public struct ReadError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// What was asked for is not there (hatk's 404).
        case notFound
        /// The read needs a signed-in viewer, or a fresh grant: hatk's 401, its "Authentication required" (as a 400
        /// or a 500) and `ScopeMissingError`. Sign in again.
        case signInRequired
        /// The upstream will not show it to this viewer: blocked, private, forbidden (403 and the other 4xx).
        case refused
        /// The upstream found the request itself wrong (400): a malformed actor, URI or cursor.
        case invalidRequest
        /// The upstream does not offer this read: an XRPC "Method not found", or a web app's HTML page where JSON was
        /// due. Leave the feature out rather than retry.
        case unsupported
        /// The upstream did not answer within the timeout.
        case timeout
        /// The upstream could not be reached, failed (5xx) or answered something that could not be read: it may
        /// come back, so a retry is worth offering.
        case unavailable
    }

    public let kind: Kind
    /// The read that failed, such as `getStoryAuthors`.
    public let endpoint: String
    /// The HTTP status the upstream answered with, where there was one (hatk's, or the embedded backend's own).
    public let status: Int?
    /// More for logs: the upstream's error name and message, or the transport's reason.
    public let detail: String

    public init(_ kind: Kind, endpoint: String, status: Int? = nil, detail: String = "") {
        self.kind = kind
        self.endpoint = endpoint
        self.status = status
        self.detail = detail
    }

    /// An XRPC error answer in hatk's shape (`{"error": name, "message": …}` with its status), as a remote hatk and
    /// the embedded backend both give it.
    public init(status: Int, error name: String, endpoint: String, message: String = "") {
        let detail = message.isEmpty ? "\(status) \(name)" : "\(status) \(name): \(message)"
        self.init(Self.kind(status: status, error: name), endpoint: endpoint, status: status, detail: detail)
    }

    /// hatk's error statuses and names, sorted into what the front does about them.
    static func kind(status: Int, error name: String) -> Kind {
        if status == 401 || name == "ScopeMissingError" { return .signInRequired }
        if (status == 400 || status == 500) && name == authenticationRequired { return .signInRequired }
        switch status {
        case 404: return name.hasPrefix("Method not found") ? .unsupported : .notFound
        case 400: return .invalidRequest
        case 400..<500: return .refused
        default: return .unavailable
        }
    }

    static let authenticationRequired = "Authentication required"

    /// Worth offering a retry: the upstream may come back.
    public var isTransient: Bool { kind == .timeout || kind == .unavailable }

    public var description: String {
        let more = detail.isEmpty ? "" : " \(detail)"
        switch kind {
        case .notFound: return "The story server has no such thing (\(endpoint)).\(more)"
        case .signInRequired: return "The story server wants you signed in again (\(endpoint)).\(more)"
        case .refused: return "The story server refused this (\(endpoint)).\(more)"
        case .invalidRequest: return "The story server found the request invalid (\(endpoint)).\(more)"
        case .unsupported: return "The story server does not seem to offer \(endpoint).\(more)"
        case .timeout: return "The story server took too long to answer (\(endpoint))."
        case .unavailable: return "The story server could not be reached or failed (\(endpoint)).\(more)"
        }
    }
}
