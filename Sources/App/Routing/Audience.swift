import Foundation
public import HTTPServer

/// Whom a server shows its household's stories to (`--visibility`).
public enum Audience: String, Sendable, CaseIterable {
    /// Only the people signed in to it: a household server's default, since a family's daily photos and where
    /// they were taken are not for whoever finds its address.
    case household
    /// Anyone who reaches it, as Grain itself is (and always with `--appview`: stories on the network are public).
    case `public`
}

/// Who may reach a route: said once per route (`Route.access`) and checked for every request by `AccessMiddleware`
/// before the handler runs, so a route added later cannot show a stranger the household's stories by being
/// forgotten. It has no default: every route must say.
enum RouteAccess: Sendable {
    /// Anyone who reaches the server: signing in, the first-run and invitation pages, health and metrics, the web
    /// app manifest, the OAuth client metadata.
    case anyone
    /// Whoever the stories are for: anyone on a public server; on a household's, a signed-in person (member or guest).
    case viewers
    /// The kiosk: whoever `viewers` admits, and on a household's server also a paired screen, which reaches nothing else.
    case screens
    /// A signed-in person (member or guest), on any server. On a public server the handler answers a stranger itself
    /// (a redirect to sign in, a 401) and checks more where it must (the owner, the story's author).
    case signedIn
    /// Like `signedIn`, but not a guest: posting, and what only a poster has (their stories' links, screens).
    case posters
}

/// Keeps a household's routes from strangers: on a `household` server, a request without a session to anything but
/// an `.anyone` route (or, from a paired screen, a `.screens` route) gets the sign-in page's way in, and nothing of
/// the household. The home page answers with the household's front door (a Sign in button, no names, counts or
/// images); other pages send the visitor to sign in and come back; script endpoints and forms answer 401. Every
/// answer it lets through is marked private, so no shared cache keeps a member's page. On any server, a guest is
/// refused what is for posters, with a page that says why.
struct AccessMiddleware: ContextMiddleware {
    let access: RouteAccess
    let audience: Audience
    let group: Route.Group
    let frontDoor: @Sendable (RequestContext) throws -> Response

    static let guestsDoNotPost =
        "You are this household’s guest: guests watch, favourite and comment, and only its members post stories. "
        + "Ask the household’s owner if you would like to post too."

    func handle(_ context: RequestContext, next: @escaping ContextHandler) async throws -> Response {
        if access == .posters, context.role == .guest { throw HTTPError(.forbidden, Self.guestsDoNotPost) }
        guard audience == .household, access != .anyone else { return try await next(context) }
        guard context.session != nil || (access == .screens && context.screen != nil) else { return try refusal(context) }
        var response = try await next(context)
        response.markPrivate()
        return response
    }

    func refusal(_ context: RequestContext) throws -> Response {
        let request = context.request
        guard group == .pages, request.method == .get || request.method == .head else {
            throw HTTPError(.unauthorized, "Sign in first: this household’s stories are for its members.")
        }
        if request.path == SiteURL.home.path { return try frontDoor(context) }
        return .redirect(to: SiteURL.login.with([("next", SiteURL.localPath(request.pathAndQuery) ?? SiteURL.home.path)]), status: .found)
    }

}

extension Response {
    /// Marks a member's answer as no shared cache may keep it: HTML not at all (it names who is signed in), the rest
    /// (photos, JSON) only in the member's own browser. The front's household routes and the embedded backend's
    /// photos and reads share this one rule.
    public mutating func markPrivate() {
        if (headers["Content-Type"] ?? "").hasPrefix("text/html") {
            headers["Cache-Control"] = "no-store"
            return
        }
        guard let current = headers["Cache-Control"], !current.isEmpty else {
            headers["Cache-Control"] = "private, no-cache"
            return
        }
        let directives = current.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0 != "public" && $0 != "private" }
        headers["Cache-Control"] = (["private"] + directives).joined(separator: ", ")
    }
}
