public import ATProto

/// Who a resource request acts for and what they granted: the answer of ``AuthServer/resourceViewer(for:)``.
///
/// The backend decides per procedure whether ``scope`` covers what the request does; the authorization server
/// only vouches that the token is ours, live, bound to the proof's key, and for an account that still exists.
public struct ResourceViewer: Sendable, Equatable {
    /// The account the token was issued to.
    public var did: DID
    /// The granted scope as recorded in the token: space-separated scope values, always including `atproto`.
    public var scope: String
    /// The client the grant was made to.
    public var clientID: String

    /// - Parameters:
    ///   - did: The signed-in account.
    ///   - scope: The granted scope string.
    ///   - clientID: The client's `client_id`.
    public init(did: DID, scope: String, clientID: String) {
        self.did = did
        self.scope = scope
        self.clientID = clientID
    }

    /// The granted scope values, in the token's order.
    public var scopes: [String] { scope.split(separator: " ").map(String.init) }

    /// Whether the exact scope value `value` (e.g. `repo:social.grain.story`) was granted.
    public func hasScope(_ value: String) -> Bool {
        scopes.contains(value)
    }
}
