import HTTPServer

/// The embedded backend's `/xrpc` and `/img` answer only requests sent to one of our own names, as the front's pages
/// do (`OriginPolicy`): a name an attacker chose, such as one DNS rebinding points at a household's box, gets 421 in
/// hatk's error shape and nothing of the household. An accepted name that is not the canonical one is still ours: apps
/// and scripts reach the backend by whichever of its names works, and it redirects nobody.
struct BackendHosts: Middleware {
    let origins: OriginPolicy

    func handle(_ request: Request, next: Handler) async throws -> Response {
        guard accepts(request) else {
            return Response(
                status: .misdirectedRequest, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
                body: .bytes(Array(#"{"error":"MisdirectedRequest","message":"This server does not answer for that host name."}"#.utf8)))
        }
        return try await next(request)
    }

    /// Whether `request` was sent to one of our names.
    func accepts(_ request: Request) -> Bool { origins.origin(of: request).origin != nil }
}
