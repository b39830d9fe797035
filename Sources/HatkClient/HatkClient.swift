public import ATProto
public import Clocks
public import Foundation
import Lexicon
public import Outbound
public import Readers

/// A typed XRPC client for a hatk server: grain.social, a self-hosted hatk, or our embedded backend,
/// always over HTTP so that every deployment runs the same code path. It writes (records, blobs, Grain's social
/// methods); its ``reader`` and ``reading(as:)`` read, as ``HatkReader``s over the same connections and cache.
public final class HatkClient: Sendable {
    let transport: HatkTransport
    /// Whether `uploadBlob` may send anything but an image: only to our embedded backend. A Grain session may upload
    /// only `image/*`, and hatk answers any other type by deleting the person's stored session.
    public let sendsClips: Bool

    /// What a call observer hears: the XRPC method (a name our code chose), seconds, and `2xx`, `4xx`, `5xx`,
    /// `timeout` or `unreachable`.
    public typealias CallObserver = @Sendable (_ nsid: String, _ seconds: Double, _ outcome: String) -> Void

    /// - Parameters:
    ///   - baseURL: the server's origin, such as `https://grain.social`.
    ///   - timeout: how long one call may take before it fails with `.timeout`.
    ///   - clock: the calendar DPoP proofs are dated by; `monotonic`, what the read cache's lifetime is measured on.
    ///   - policy: which addresses calls may connect to. Public ones only by default: a hatk on loopback or the
    ///     LAN (the embedded backend) needs its origin in the allowance.
    ///   - observe: told of every call's method, time and outcome; nil for nobody.
    ///   - keepsConnectionsOpen: false closes each connection once its answer is in: for the embedded backend on the
    ///     server's own listener, which is called only to write, so the server holds no connection to itself.
    ///   - sendsClips: lets `uploadBlob` send `video/*` (our embedded backend only).
    public init(
        baseURL: URL, timeout: TimeInterval = 10, nonces: ReceivedNonces = ReceivedNonces(),
        clock: @escaping @Sendable () -> UTCTime = { .now }, monotonic: MonotonicClock = .continuous,
        cacheTTL: Duration = .zero, policy: AddressPolicy = .publicOnly, observe: CallObserver? = nil, keepsConnectionsOpen: Bool = true,
        sendsClips: Bool = false
    ) {
        self.sendsClips = sendsClips
        transport = HatkTransport(
            baseURL: baseURL, timeout: timeout, nonces: nonces, clock: clock, monotonic: monotonic, cacheTTL: cacheTTL, policy: policy,
            observe: observe,
            keepsConnectionsOpen: keepsConnectionsOpen)
    }

    public var baseURL: URL { transport.baseURL }
    /// Shared with the OAuth client, so a nonce learnt at the token endpoint is used on XRPC calls too.
    public var nonces: ReceivedNonces { transport.nonces }

    /// The story reads as anyone: answers may come from the read cache.
    public var reader: HatkReader { HatkReader(transport: transport, credentials: nil) }

    /// The same reads, signed as a signed-in person (`Authorization: DPoP` with a proof naming the query), so that
    /// hatk answers with their viewer state: favourites, mutes and blocks, what they have viewed. Their answers
    /// are never cached: they differ per person.
    /// - Parameter credentials: fetched once per read, so a token refreshed meanwhile is picked up.
    public func reading(as credentials: @escaping @Sendable () async throws -> DPoPCredentials) -> any StoryReading {
        HatkReader(transport: transport, credentials: credentials)
    }

    /// Forgets cached reads, after a write that changes what they would say.
    public func invalidateCache() {
        transport.invalidateCache()
    }
}
