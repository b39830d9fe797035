import ATProto
public import Foundation
public import HatkClient
public import Outbound
import Synchronization

/// The OAuth client the front uses for each origin it serves. The client's id and redirect URI are on the origin
/// the browser used, so a household reached as `http://192.168.1.20:8080` and as `http://box.local:8080` signs
/// in on whichever it is using.
public final class SignInServers: Sendable {
    /// Where people sign in.
    public enum Server: Sendable {
        /// The embedded authorization server, on every origin the front serves: reached at `transport` (loopback)
        /// with its metadata known in advance, so the server never calls itself through its public address.
        /// `frontKey` goes with every request, so the server knows its own front (see `AuthServerConfiguration.ownFrontKey`).
        case embedded(transport: URL, metadata: @Sendable (String) -> AuthorizationServerMetadata, frontKey: String)
        /// A remote hatk's authorization server (its issuer URL).
        case remote(issuer: URL)
    }

    public struct Configuration: Sendable {
        public var server: Server
        public var timeout: TimeInterval
        /// The addresses OAuth calls may reach: public ones, plus the configured issuer or our own loopback.
        public var policy: AddressPolicy
        /// Shared with the writer, so a nonce learnt at the token endpoint is used on XRPC calls too.
        public var nonces: ReceivedNonces

        public init(server: Server, timeout: TimeInterval, policy: AddressPolicy, nonces: ReceivedNonces) {
            self.server = server
            self.timeout = timeout
            self.policy = policy
            self.nonces = nonces
        }
    }

    let configuration: Configuration
    let clock: @Sendable () -> UTCTime
    /// One client per origin, made on first use; origins are ours (checked), so there are few.
    private let clients = Mutex<[String: OAuthClient]>([:])

    init(_ configuration: Configuration, clock: @escaping @Sendable () -> UTCTime) {
        self.configuration = configuration
        self.clock = clock
    }

    /// The client for sign-ins made on `origin`.
    func client(for origin: String) -> OAuthClient {
        if let existing = clients.withLock({ $0[origin] }) { return existing }
        let clock = self.clock
        let made: OAuthClient
        let clientID = origin + SiteURL.clientMetadata.path
        let redirect = origin + SiteURL.authCallback.path
        switch configuration.server {
        case .embedded(let transport, let metadata, let frontKey):
            // The issuer is the origin itself; `URL(string:)` of a checked origin cannot fail, but an unusable one
            // falls back to the transport so nothing crashes.
            made = OAuthClient(
                clientID: clientID, redirectURI: redirect, issuer: URL(string: origin) ?? transport, scope: OAuthClient.householdScope,
                transport: transport, metadata: metadata(origin), nonces: configuration.nonces, timeout: configuration.timeout, clock: clock,
                policy: configuration.policy, headers: ["Grain-Front": frontKey])
        case .remote(let issuer):
            made = OAuthClient(
                clientID: clientID, redirectURI: redirect, issuer: issuer, nonces: configuration.nonces,
                timeout: configuration.timeout, clock: clock, policy: configuration.policy)
        }
        return clients.withLock { clients in
            if let raced = clients[origin] { return raced }
            if clients.count >= 64 { clients.removeAll() }
            clients[origin] = made
            return made
        }
    }

    /// The origin DPoP proofs of a session made on `origin` name: that origin for the embedded server (its
    /// tokens were issued there), nothing special for a remote hatk.
    func resourceOrigin(for origin: String) -> URL? {
        guard case .embedded = configuration.server else { return nil }
        return URL(string: origin)
    }

    /// The remote issuer's origin, which the CSP's `form-action` must allow; nil for the embedded server.
    var remoteIssuer: URL? {
        guard case .remote(let issuer) = configuration.server else { return nil }
        return issuer
    }
}
