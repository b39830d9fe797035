import Foundation

/// Which `client_id` / `redirect_uri` pairs may start an authorization, as hatk's `resolveClient` decides:
/// registered clients by exact match, loopback clients without registration when the redirect URI shares the
/// client_id's origin.
struct ClientPolicy: Sendable {
    var registered: [RegisteredClient]

    /// What the sign-in page needs to know about an accepted client.
    struct Client: Sendable, Equatable {
        var clientID: String
        var name: String
    }

    /// The client if `redirectURI` is allowed for `clientID`.
    func resolve(clientID: String, redirectURI: String) throws(OAuthError) -> Client {
        guard !redirectURI.contains("#") else { throw .invalidRequest("redirect_uri must not contain a fragment") }
        if let client = registered.first(where: { $0.clientID == clientID }) {
            guard client.redirectURIs.contains(redirectURI) else {
                throw .invalidRequest("redirect_uri is not registered for this client")
            }
            return Client(clientID: clientID, name: client.clientName ?? clientID)
        }
        guard let clientOrigin = Origin(clientID), clientOrigin.isLoopback else {
            throw .invalidClient("Unknown client: \(clientID.prefix(200))")
        }
        guard Origin(redirectURI) == clientOrigin else {
            throw .invalidRequest("A loopback client's redirect_uri must have the client_id's origin")
        }
        return Client(clientID: clientID, name: clientOrigin.host)
    }
}

/// The scheme, host and effective port of an http(s) URL, compared case-insensitively.
struct Origin: Sendable, Equatable {
    var scheme: String
    var host: String
    var port: Int

    /// Nil for anything but an absolute http or https URL with a host and no user information.
    init?(_ url: String) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
            components.user == nil, components.password == nil
        else { return nil }
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = components.port ?? (scheme == "https" ? 443 : 80)
    }

    /// hatk's loopback rule: `localhost`, `127.0.0.1` or `[::1]`.
    var isLoopback: Bool {
        ["localhost", "127.0.0.1", "[::1]", "::1"].contains(host)
    }
}
