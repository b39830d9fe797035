import Foundation
import Synchronization
import WebAddresses

/// The one HTTP client for every fetch the server makes, on libcurl: each connection is checked against an
/// `AddressPolicy` on the address actually connected to, redirects are returned rather than followed, there is
/// no cookie engine and no proxy, bodies are capped, and connections are kept alive and reused.
///
/// Transfers run on one dedicated thread per client (started by the first request, ended when the client is
/// released), so `send` suspends without holding a Swift concurrency thread however long the server takes.
public final class OutboundHTTP: Sendable {
    /// Limits and the address policy, fixed for the client's life.
    public struct Configuration: Sendable {
        /// Which addresses connections may reach.
        public var policy: AddressPolicy
        /// The largest response body accepted; a larger one fails with `.bodyTooLarge` as soon as it is seen.
        public var maximumBodySize: Int = 10 * 1024 * 1024
        /// The longest a connection may take to open, within each request's own timeout.
        public var connectTimeout: Duration = .seconds(5)
        /// Finished easy handles kept for reuse.
        public var idleHandles: Int = 8
        /// Idle connections kept open for reuse (curl's connection cache).
        public var cachedConnections: Int = 16
        /// Whether a connection stays open for the next request; false closes each one once its answer is in (for
        /// calls to the server's own listener, so that it holds no connection to itself while it serves).
        public var keepsConnectionsOpen = true

        /// The defaults above with `policy`.
        public init(policy: AddressPolicy = .publicOnly) {
            self.policy = policy
        }
    }

    /// The limits and policy every request of this client goes by.
    public let configuration: Configuration
    private let loop: TransferLoop?

    /// A client; its transfer thread starts with the first request.
    public init(configuration: Configuration) {
        self.configuration = configuration
        loop = TransferLoop(idleHandles: configuration.idleHandles, cachedConnections: configuration.cachedConnections)
    }

    /// A client with default limits and `policy`.
    public convenience init(policy: AddressPolicy = .publicOnly) {
        self.init(configuration: Configuration(policy: policy))
    }

    deinit {
        loop?.stop()
    }

    /// Sends `request` and returns whatever HTTP status came back; only a missing answer throws.
    /// Cancelling the calling task stops the transfer and throws `.cancelled`.
    public func send(_ request: OutboundRequest) async throws(OutboundError) -> OutboundResponse {
        let transfer = try Transfer(
            request, policy: configuration.policy, maximumBodySize: configuration.maximumBodySize,
            connectTimeout: configuration.connectTimeout, keepsConnectionOpen: configuration.keepsConnectionsOpen)
        guard let loop else {
            throw OutboundError(.connectionFailed, host: transfer.url.origin.urlHost, detail: "libcurl failed to start")
        }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfer.continuation = continuation
                loop.submit(transfer)
            }
        } onCancel: {
            transfer.cancelled.store(true, ordering: .relaxed)
            loop.cancelSoon()
        }
        return try outcome.get()
    }
}
