import Foundation
public import WebAddresses

/// Why an outbound request got no HTTP answer. Messages name the host, never the path or query.
public struct OutboundError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The broad cause.
    public enum Kind: Sendable, Equatable {
        /// The URL is not an `http`/`https` URL libcurl can parse, or a header would split the request.
        case invalidRequest
        /// The address policy refused every address the host resolved to; the first refused one is given.
        case refused(address: IPAddress, category: AddressCategory)
        /// The host name did not resolve.
        case unresolvable
        /// No connection (refused, reset, TLS failure) or the exchange broke off.
        case connectionFailed
        /// The request's timeout passed.
        case timeout
        /// The body grew past the client's `maximumBodySize`; the transfer was stopped there.
        case bodyTooLarge(limit: Int)
        /// The calling task was cancelled, or the client went away.
        case cancelled
    }

    /// The broad cause.
    public let kind: Kind
    /// The host the request was for (`example.com`, `[::1]`), or empty when the URL had none.
    public let host: String
    /// libcurl's explanation, for logs.
    public let detail: String

    /// An error of `kind` for a request to `host`.
    public init(_ kind: Kind, host: String, detail: String = "") {
        self.kind = kind
        self.host = host
        self.detail = detail
    }

    /// "refused: localhost resolved to a loopback address (127.0.0.1)", "example.com did not answer in time", …
    public var description: String {
        switch kind {
        case .invalidRequest:
            return "invalid request: \(detail)"
        case .refused(let address, let category):
            // A literal address "resolves" to itself; say it once (`[::ffff:10.0.0.1]` is 10.0.0.1).
            if IPAddress(host.trimmingCharacters(in: ["[", "]"])) == address {
                return "refused: \(host) is \(category)"
            }
            return "refused: \(host) resolved to \(category) (\(address))"
        case .unresolvable:
            return "\(host) could not be resolved"
        case .connectionFailed:
            return "connection to \(host) failed" + (detail.isEmpty ? "" : ": \(detail)")
        case .timeout:
            return "\(host) did not answer in time"
        case .bodyTooLarge(let limit):
            return "the answer from \(host) exceeds \(limit) bytes"
        case .cancelled:
            return "the request to \(host) was cancelled"
        }
    }
}
