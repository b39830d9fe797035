import HTTPServer
import WebAddresses

/// Which origins are this server's, and which one a request was sent to (the HTTP layer's policy, asked here).
struct OwnOrigins: Sendable {
    let isOwn: @Sendable (String) -> Bool
    let requestOrigin: @Sendable (Request) -> String?

    /// The serialized origin of `url` when it is one of ours, else nil.
    func origin(of url: String) -> String? {
        guard let origin = Origin(url)?.description, isOwn(origin) else { return nil }
        return origin
    }

    /// The issuer a request sees: the validated origin it was sent to, when that is one of ours.
    func issuer(of request: Request) -> String? {
        requestOrigin(request).flatMap(origin(of:))
    }
}
