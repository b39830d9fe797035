import Foundation
import WebAddresses

/// Which `client_id` / `redirect_uri` pairs may start an authorization: our own front under each of our origins,
/// registered clients by exact match (hatk's `oauth.clients`), and atproto's localhost development client
/// (``LocalhostClient``, stricter than hatk's loopback rule). No client metadata document is ever fetched.
struct ClientPolicy: Sendable {
    /// The name the sign-in page shows for our own front.
    static let ownClientName = "grain-stories"
    /// Where our front serves its client metadata and receives the callback, under each origin it serves.
    static let ownClientPath = "/oauth-client-metadata.json"
    static let ownCallbackPath = "/auth/callback"

    var registered: [RegisteredClient]
    var isOwnOrigin: @Sendable (String) -> Bool

    /// What the sign-in page needs to know about an accepted client.
    struct Client: Sendable, Equatable {
        var clientID: String
        var name: String
        /// The scope values this client may ask for; nil when any scope we support is fine.
        var scopes: Set<String>? = nil
    }

    /// The client if `redirectURI` is allowed for `clientID`.
    func resolve(clientID: String, redirectURI: String) throws(OAuthErrorResponse) -> Client {
        guard !redirectURI.contains("#") else { throw .invalidRequest("redirect_uri must not contain a fragment") }
        if let own = ownClient(clientID: clientID) {
            guard redirectURI == own + Self.ownCallbackPath else {
                throw .invalidRequest("redirect_uri must be \(own + Self.ownCallbackPath) for this client")
            }
            return Client(clientID: clientID, name: Self.ownClientName)
        }
        if let client = registered.first(where: { $0.clientID == clientID }) {
            guard client.redirectURIs.contains(redirectURI) else {
                throw .invalidRequest("redirect_uri is not registered for this client")
            }
            return Client(clientID: clientID, name: client.clientName ?? clientID)
        }
        guard let localhost = try LocalhostClient(clientID: clientID) else {
            throw .invalidClient("Unknown client: \(clientID.prefix(200))")
        }
        guard localhost.allows(redirectURI: redirectURI) else {
            throw .invalidRequest("redirect_uri is not one this localhost client declares")
        }
        return Client(clientID: clientID, name: LocalhostClient.name, scopes: localhost.scopes)
    }

    /// The origin of `clientID` when it is our front's own client_id, `<origin>/oauth-client-metadata.json` under
    /// one of our origins, written exactly in the serialized form (so there is one spelling per origin).
    private func ownClient(clientID: String) -> String? {
        guard clientID.hasSuffix(Self.ownClientPath) else { return nil }
        let origin = String(clientID.dropLast(Self.ownClientPath.count))
        guard Origin(origin)?.description == origin, isOwnOrigin(origin) else { return nil }
        return origin
    }
}
