import HTTPServer

/// One route of the front: a method and page, how its errors render, and the controller method that
/// answers it. Each controller lists its own (`routes`); `Controllers.routes` is the whole table.
struct Route: Sendable {
    /// How a route's errors are rendered: an HTML page, or the viewer scripts' JSON.
    enum Group: Sendable { case pages, api }

    let method: HTTPMethod
    /// The page this route answers; only its pattern counts, not the values of the case written here.
    let page: SiteURL
    /// Who may reach it (see `RouteAccess`); every route says, so none is open by being forgotten.
    let access: RouteAccess
    var group: Group = .pages
    /// The largest body accepted; nil is the router's default (64 KiB).
    var bodyLimit: Int?
    /// A GET's answer may be reused for a moment (the page cache): anonymous visitors share one, and a signed-in
    /// visitor's or paired screen's is kept apart, by session and seen marks (``PageCache/Key``).
    var cached = false
    /// Answered on any Host, without the origin check: `/healthz`, `/readyz` and `/metrics`, which monitors reach by
    /// whatever address works.
    var anyHost = false
    /// Refused at once, before any of the body is read, without a session cookie that names a live session: a
    /// stranger cannot make the server take in a 30 MB body.
    var requiresSession = false
    /// The body goes to a temporary file instead of memory (uploads).
    var bodyOnDisk = false
    /// The manifest's share target: checked for another site's origin instead of a CSRF token it cannot carry.
    /// Such a route must only stage what it receives, never act on it (`ShareTargetMiddleware`).
    var shareTarget = false
    /// The kind of write this route makes, counted per person (`WriteLimitMiddleware`); nil for none.
    var write: SocialWrite?
    let handler: ContextHandler
}

/// The front's controllers, each holding only what it uses.
struct Controllers: Sendable {
    let pages: StoryPages
    let signIn: SignInController
    let writes: StoryWrites
    let social: SocialController
    /// Absent against a remote hatk, whose accounts live there.
    let household: HouseholdController?
    /// The owner's review of reports; absent against a remote hatk, whose operators moderate there.
    let moderation: ModerationController?
    /// The owner's `/admin` page; absent with the household.
    let admin: AdminController?
    /// Paired screens; absent against a remote hatk.
    let screens: ScreenController?
    /// Share links; absent against a remote hatk.
    let shares: ShareLinkController?
    let operations: OperationsController

    /// Every route of the front: each controller's own, and the household's where there is one.
    var routes: [Route] {
        pages.routes + signIn.routes + writes.routes + social.routes + operations.routes + (moderation?.routes ?? [])
            + (household?.routes ?? []) + (admin?.routes ?? []) + (screens?.routes ?? []) + (shares?.routes ?? [])
    }
}
