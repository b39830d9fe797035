/// The cross-origin (CORS) header sets the server answers with, each written once. Every set allows any origin (`*`),
/// which never admits credentials: a page on another site may read these answers, but never as a signed-in browser.
public struct CORS: Sendable {
    /// The headers of the set, in the order they are added.
    public let headers: HTTPHeaders

    /// `Access-Control-Allow-Origin: *` alone: a simple GET any page may read (an image's bytes, client metadata).
    public static let anyOrigin = CORS(headers: ["Access-Control-Allow-Origin": "*"])

    /// hatk's XRPC and `/img` convention, on every answer and the preflight: any origin, any request header, GET and
    /// POST.
    public static let xrpc = CORS(headers: [
        "Access-Control-Allow-Origin": "*",
        "Access-Control-Allow-Headers": "*",
        "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
    ])

    /// The authorization server's script-facing endpoints, like hatk's: any origin, plus the headers a script must read
    /// (`DPoP-Nonce`, `WWW-Authenticate`).
    public static let oauth = CORS(headers: [
        "Access-Control-Allow-Origin": "*",
        // `*` does not cover Authorization (Fetch spec), which resource calls send; name it and DPoP explicitly.
        "Access-Control-Allow-Headers": "*, Authorization, DPoP, Content-Type",
        "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
        "Access-Control-Expose-Headers": "DPoP-Nonce, WWW-Authenticate",
    ])
}

extension Response {
    /// Adds the headers of `cors`, each replacing any header of the same name.
    public mutating func allow(_ cors: CORS) {
        for (name, value) in cors.headers {
            headers[name] = value
        }
    }

    /// Removes every header `cors` would add, whatever its value: an answer that must not be readable cross-origin.
    public mutating func withdraw(_ cors: CORS) {
        for (name, _) in cors.headers {
            headers[name] = nil
        }
    }
}
