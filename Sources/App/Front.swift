import ATProto
import Foundation
import HTTPServer
import HatkClient
import Synchronization

/// The front's handlers: each reads through the hatk client, builds a page model and renders it.
final class Front: Sendable {
    /// The hatk server the front talks to, and the OAuth client that signs people in to it.
    struct Upstream: Sendable {
        var hatk: HatkClient
        var oauth: OAuthClient
        /// Our own origin, for CSRF origin checks and links.
        var origin: String
    }

    let pages: PageRenderer
    let clock: @Sendable () -> UTCTime
    let sessions: SessionStore
    let cookies: CookieSettings
    let refreshes = RefreshCoordinator()
    /// How many token refreshes this front has made (tests check concurrent requests share one).
    let refreshCount = Atomic<Int>(0)
    /// The embedded backend's account administration; nil with `--appview`.
    let household: HouseholdAdmin?
    let uploads: UploadSettings
    let pageCache: PageCache
    let seen: SeenStore
    let viewer: ViewerSettings
    private let upstream: Mutex<Upstream?>

    init(
        pages: PageRenderer, sessions: SessionStore, cookies: CookieSettings, household: HouseholdAdmin?,
        uploads: UploadSettings = UploadSettings(), pageCacheTTL: Duration = .zero, viewer: ViewerSettings = ViewerSettings(),
        clock: @escaping @Sendable () -> UTCTime
    ) {
        self.pages = pages
        self.viewer = viewer
        seen = SeenStore(database: sessions.database)
        self.uploads = uploads
        pageCache = PageCache(ttl: pageCacheTTL)
        self.household = household
        self.sessions = sessions
        self.cookies = cookies
        self.clock = clock
        upstream = Mutex(nil)
    }

    /// Set once the upstream's address is known (the embedded backend's port is only known after binding).
    func connect(_ upstream: Upstream) {
        self.upstream.withLock { $0 = upstream }
    }

    var connected: Upstream {
        get throws {
            guard let upstream = upstream.withLock({ $0 }) else { throw HTTPError(.serviceUnavailable, "Starting up") }
            return upstream
        }
    }

    var reader: any StoryReading {
        get throws { try connected.hatk }
    }

    func register(on router: inout Router) {
        for (kind, pattern) in SiteURL.patterns {
            let cacheable = [.home, .story, .profile, .storiesData, .kiosk, .kioskData].contains(kind)
            router.on(.get, pattern) { [self] request in
                guard cacheable, let key = self.pageCacheKey(for: request) else {
                    return try await self.guardedPage(request) { try await self.handle(kind, request) }
                }
                return try await self.pageCache.page(key) {
                    try await self.guardedPage(request) { try await self.handle(kind, request) }
                }
            }
        }
        router.on(.post, SiteURL.seen.path, bodyLimit: 4096) { [self] request in try self.markSeen(request) }
        registerAccountRoutes(on: &router)
        registerHouseholdRoutes(on: &router)
        // Cached pages go out straight from the server thread.
        router.immediateResponder = { [self] request in
            guard request.method == .get, let key = self.pageCacheKey(for: request), let page = self.pageCache.peek(key)
            else { return nil }
            return SecurityHeaders.apply(to: page)
        }
    }

    /// Pages for visitors without a session are the same for everyone, so they are cached under their
    /// path and query; nil for a signed-in visitor.
    func pageCacheKey(for request: Request) -> String? {
        request.cookies[cookies.sessionName] == nil ? request.path + "?" + request.query : nil
    }

    /// Turns upstream failures into a page offering a retry.
    func guarded(_ request: Request, _ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let error as HatkError {
            return try upstreamFailure(error, request: request)
        }
    }

    /// A read-only page answers by the upstream timeout even when it needs several calls one after another
    /// (each could otherwise use the whole timeout). Writes don't get this: they must finish or fail whole.
    func guardedPage(_ request: Request, _ body: @escaping @Sendable () async throws -> Response) async throws -> Response {
        try await guarded(request) {
            try await withDeadline(viewer.pageDeadline, timeout: { HatkError(kind: .timeout, endpoint: request.path) }, body)
        }
    }

    private func handle(_ kind: SiteURL.Kind, _ request: Request) async throws -> Response {
        switch kind {
        case .home: return try await home(request)
        case .stories: return try await stories(request)
        case .story: return try await story(request)
        case .profile: return try await profile(request)
        case .create: return try await createForm(request)
        case .healthz: return .text("ok")
        case .storiesData: return try await storiesData(request)
        case .kiosk: return try await kiosk(request)
        case .kioskData: return try await kioskData(request)
        }
    }

    func home(_ request: Request) async throws -> Response {
        // A fresh household without any account starts at the first-run page.
        if household?.needsOwner == true { return .redirect(to: "/welcome", status: .found) }
        let session = try currentSession(request)
        // Signed-in visitors get a token for seen marks and the delete dialog.
        let token = session.map { _ in cookies.csrfToken(for: request) }
        let model = try await HomePage.query(
            try reader, seen: try seenState(session), viewer: session?.did, csrf: token?.value,
            durationMs: viewer.photoDurationMs)
        let response = try pages.render(
            "home", title: "Stories", model: model, scripts: ["js/viewer.js"], signedInAs: session?.handle)
        return token?.attach(to: response) ?? response
    }

    /// `/stories/<actor>`: picks the story to open and redirects to its permalink.
    func stories(_ request: Request) async throws -> Response {
        let actor = try request.parameters.require("actor")
        let reader = try self.reader
        guard let did = try await resolve(actor, reader) else {
            return try notFound("No one called \(actor) is here.")
        }
        let stories = try await reader.stories(of: did)
        let start = try seenState(try currentSession(request)).startIndex(in: stories)
        guard let chosen = request.query("at") == "last" ? stories.last : stories.indices.contains(start) ? stories[start] : nil else {
            return try notFound("\(actor) has no stories from the last 24 hours.")
        }
        let target = SiteURL.story(did: did.rawValue, rkey: chosen.rkey)
        return .redirect(to: target.with([("from", SiteURL.localPath(request.query("from")))]), status: .found)
    }

    func story(_ request: Request) async throws -> Response {
        let rawDID = try request.parameters.require("did")
        let rkey = try request.parameters.require("rkey")
        let reader = try self.reader
        guard let did = try await resolve(rawDID, reader), RecordKey.isValid(rkey) else {
            return try notFound("This story does not exist.")
        }
        if did.rawValue != rawDID {
            // Grain's permalinks name a DID; a handle is accepted and redirected to the canonical form.
            return .redirect(to: SiteURL.story(did: did.rawValue, rkey: rkey).path, status: .movedPermanently)
        }
        let session = try currentSession(request)
        guard
            var model = try await StoryPage.query(
                did: did, rkey: rkey, from: request.query("from"), reader: reader, seen: try seenState(session),
                viewer: session?.did, durationMs: viewer.photoDurationMs, now: clock())
        else { return try notFound("This story does not exist, or it was deleted.") }
        let token = session.map { _ in cookies.csrfToken(for: request) }
        model.csrf = token?.value
        if let session {
            // Served means seen, so the strip is right even for visitors without scripts.
            try recordSeen(model.item, account: session.did)
        }
        if session?.did == did.rawValue {
            switch request.query("posted") {
            case "bluesky": model.notice = "Posted to your story and to Bluesky."
            case "bluesky-failed": model.notice = "Your story is posted, but the Bluesky post failed. You can share the link yourself."
            default: break
            }
        }
        let response = try pages.render(
            "story", title: "\(model.author.name)’s story", model: model, scripts: ["js/viewer.js"],
            bodyClass: "viewer-page")
        return token?.attach(to: response) ?? response
    }

    func profile(_ request: Request) async throws -> Response {
        let actor = try request.parameters.require("actor")
        let session = try currentSession(request)
        let token = session.map { _ in cookies.csrfToken(for: request) }
        guard
            let model = try await ProfilePage.query(
                actor: actor, reader: try reader, seen: try seenState(session), viewer: session?.did, csrf: token?.value,
                durationMs: viewer.photoDurationMs, now: clock())
        else {
            return try notFound("No one called \(actor) is here.")
        }
        let response = try pages.render(
            "profile", title: model.author.name, model: model, scripts: ["js/viewer.js"], signedInAs: session?.handle)
        return token?.attach(to: response) ?? response
    }

    /// A DID as is; a handle through the upstream's profile lookup.
    func resolve(_ actor: String, _ reader: any StoryReading) async throws(HatkError) -> DID? {
        if let did = DID.parse(actor) { return did }
        guard Handle.isValid(actor), let profile = try await reader.profile(actor) else { return nil }
        return DID.parse(profile.did)
    }

    func notFound(_ message: String) throws -> Response {
        let model = ErrorPage.Model(status: 404, heading: "Not found", message: message)
        return try pages.render("error", title: "Not found", model: model, status: .notFound)
    }

    func upstreamFailure(_ error: HatkError, request: Request) throws -> Response {
        FileHandle.standardError.write(Data("upstream error: \(error)\n".utf8))
        let status: HTTPStatus = error.kind == .timeout ? .gatewayTimeout : .badGateway
        if request.path.hasPrefix("/api/") {
            return jsonError("UpstreamFailure", "The story server did not answer properly; try again.", status: status)
        }
        let retry = request.query.isEmpty ? request.path : request.path + "?" + request.query
        let model = ErrorPage.Model(
            status: status.code, heading: "Stories are not available right now",
            message: error.kind == .timeout
                ? "The story server is taking too long to answer. It may be busy; try again in a moment."
                : "The story server could not be reached or sent something unexpected. Try again in a moment.",
            retryHref: SiteURL.localPath(retry))
        return try pages.render("error", title: "Unavailable", model: model, status: status)
    }
}
