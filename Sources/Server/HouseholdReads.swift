import App
import HTTPServer

/// The embedded backend's `/img` and `/xrpc` for a household whose stories are its own (`--visibility household`):
/// a photo goes only to a browser signed in to the front (or a screen paired with it) or a client with an access token of the household's
/// authorization server (the backend itself refuses a query without a viewer, and a write without credentials), and
/// no answer carries CORS headers, so another site's page a member opens cannot read the household through their
/// browser. Photos may stay in the member's own browser cache, never a shared one.
struct HouseholdReads: Middleware {
    /// Whether the request carries a live session cookie of the front, or a paired screen's.
    let signedIn: @Sendable (Request) -> Bool
    /// Whether the request carries an access token of ours (signature, issuer, expiry).
    let token: @Sendable (Request) -> Bool

    func handle(_ request: Request, next: Handler) async throws -> Response {
        if request.path.hasPrefix("/img/"), !signedIn(request), !token(request) {
            // hatk's error shape, built here: the group's error responder puts the message where hatk puts the name.
            return Response(
                status: .unauthorized, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
                body: .bytes(Array(#"{"error":"AuthenticationRequired","message":"Sign in to see this household's photos"}"#.utf8)))
        }
        return Self.privately(try await next(request))
    }
}

extension HouseholdReads {
    /// `response` as a household's answer: no CORS, and cacheable only by the member's own browser.
    static func privately(_ response: Response) -> Response {
        var response = withoutCORS(response)
        response.markPrivate()
        return response
    }

    /// `response` without the CORS headers hatk puts on everything (``CORS/xrpc``).
    static func withoutCORS(_ response: Response) -> Response {
        var response = response
        response.withdraw(.xrpc)
        return response
    }
}
