import Foundation
import HTTPServer

/// atproto's development client (specs/oauth, "Localhost Client Development"): a `client_id` of exactly
/// `http://localhost` (no port, path empty or `/`), whose query may declare `redirect_uri` (repeatable) and one
/// `scope`. Its redirect URIs are on `127.0.0.1` or `[::1]` only; a request's `redirect_uri` must match a declared
/// one in everything but the port (RFC 8252 §7.3: a native app listens on whatever port is free).
///
/// hatk's own rule is looser: any `client_id` on a loopback host (`http://127.0.0.1:3000/anything`, even
/// `localhost`), with any redirect on that origin. A client that relies on that form must be registered here (or,
/// if it is our front, is already accepted as our own client).
struct LocalhostClient: Sendable, Equatable {
    /// The declared redirect URIs; the spec's defaults when the client_id declares none.
    var redirectURIs: [String]
    /// The scope values the client may ask for (`atproto` unless the client_id declares more).
    var scopes: Set<String>

    static let defaultRedirectURIs = ["http://127.0.0.1/", "http://[::1]/"]
    static let name = "Development client (localhost)"

    /// Nil when `clientID` is not a localhost client_id at all; throws when it is one but breaks the rules.
    init?(clientID: String) throws(OAuthErrorResponse) {
        guard let components = URLComponents(string: clientID), components.scheme == "http",
            components.host == "localhost"
        else { return nil }
        guard components.port == nil, components.user == nil, components.password == nil,
            components.fragment == nil, ["", "/"].contains(components.percentEncodedPath)
        else { throw .invalidClient("A localhost client_id is exactly http://localhost, without port or path") }
        // The query is form-encoded (the TypeScript client builds it with URLSearchParams: `+` for a space).
        guard let query = try? URLEncodedForm(Array((components.percentEncodedQuery ?? "").utf8)) else {
            throw .invalidClient("The localhost client_id's query cannot be read")
        }
        var redirects: [String] = []
        var scope: String?
        for (name, value) in query.fields {
            switch name {
            case "redirect_uri":
                guard Self.isLoopbackRedirect(value) else {
                    throw .invalidClient("A localhost client's redirect_uri must be on http://127.0.0.1 or http://[::1]")
                }
                redirects.append(value)
            case "scope":
                guard scope == nil else { throw .invalidClient("A localhost client_id declares at most one scope") }
                scope = value
            default:
                throw .invalidClient("A localhost client_id may only declare redirect_uri and scope")
            }
        }
        redirectURIs = redirects.isEmpty ? Self.defaultRedirectURIs : redirects
        scopes = Set((scope ?? "atproto").split(separator: " ").map(String.init))
    }

    /// Whether `redirectURI` matches a declared one, the port aside.
    func allows(redirectURI: String) -> Bool {
        guard let requested = Self.portless(redirectURI) else { return false }
        return redirectURIs.contains { Self.portless($0) == requested }
    }

    /// An http URL on a loopback IP literal without user information or fragment.
    static func isLoopbackRedirect(_ url: String) -> Bool {
        portless(url) != nil
    }

    /// The parts compared between a declared and a requested redirect: host, path and query (the scheme is
    /// always http); nil for anything but an http URL on `127.0.0.1` or `[::1]`.
    private static func portless(_ url: String) -> [String]? {
        guard let components = URLComponents(string: url), components.scheme == "http",
            let host = components.host.map({ $0.lowercased() }), ["127.0.0.1", "[::1]", "::1"].contains(host),
            components.user == nil, components.password == nil, components.fragment == nil
        else { return nil }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return [host == "::1" ? "[::1]" : host, path, components.percentEncodedQuery ?? ""]
    }
}
