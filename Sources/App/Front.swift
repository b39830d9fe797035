public import ATProto
public import Clocks
import Foundation
public import FrontState
import HTMLRendering
public import HTTPServer
import HatkClient
public import Publishing
import Synchronization

/// The front: every page, form and JSON answer for people, on the server's router. It reads through a
/// `StorySource`, writes through a hatk client with the visitor's DPoP credentials, and keeps each visitor's
/// OAuth session on the server.
public struct Front: Sendable {
    let routes: [Route]
    let builder: ContextBuilder
    let errors: FrontErrors
    let pageDeadline: Duration
    let pageCache: PageCache
    let sessions: any SessionStoring
    let seen: SeenKeeper
    let credentials: SessionCredentials
    let activity: ActivityCounts
    /// Where upload bodies stream to (the data directory's `uploads`), never to memory.
    let uploads: String
    /// Whom the household's stories are for.
    let audience: Audience
    /// Each person's allowance of comments, favourites, mutes, blocks, seen marks and reports.
    let writeLimiters: WriteLimiters
    /// What a stranger gets at `/` of a household server.
    let frontDoor: @Sendable (RequestContext) throws -> Response
    /// The owner's changes to members (the `/admin` page and `users ...` take it); nil without a household.
    public let administration: MemberAdministration?

    /// Builds the controllers and the route table from the parts the composition root made.
    /// - Parameters:
    ///   - pages: the templates in their layout, with the CSP the deployment needs.
    ///   - state: where sessions, seen marks and limits are kept (`front.sqlite`, or PostgreSQL shared by fronts).
    ///   - upstream: where stories are read and written and people sign in.
    ///   - household: what only the embedded household has; `.none` against a remote hatk.
    ///   - publisher: posts stories (its worker pool's load is reported by `/healthz`).
    ///   - placeSearch: the create form's place search over the offline table; nil when the server has none.
    ///   - origins: the origin each request was sent to (from the Host header, checked against what is ours).
    ///   - clientAddress: the address per-client limits count against (the socket peer, or what a trusted proxy
    ///     reports).
    ///   - probes: the server's health and counters, for `/healthz`, `/readyz` and `/metrics`; nil answers `ok`.
    ///   - uploads: where upload bodies stream to (the data directory's `uploads`), never to memory.
    ///   - clock: the calendar; `monotonic`, what the page cache's lifetimes are measured on.
    public init(
        pages: PageRenderer, settings: FrontSettings, state: FrontStores, upstream: FrontUpstream, household: FrontHousehold,
        publisher: StoryPublisher, placeSearch: (any PlaceFinding)?, origins: @escaping @Sendable (Request) -> OriginDecision,
        clientAddress: @escaping @Sendable (Request) -> String?, probes: (any ServerProbes)?, uploads: String,
        clock: @escaping @Sendable () -> UTCTime, monotonic: MonotonicClock = .continuous
    ) {
        let sessions = state.sessions
        let seen = state.seen
        let signInLimiter = state.limiter(scope: "sign-in", limit: settings.signInsPerMinute)
        let uploadLimiter = state.limiter(scope: "upload", limit: settings.uploadsPerMinute)
        let passLimiter = state.limiter(scope: "passes", limit: settings.passesPerMinute)
        let previewLimiter = state.limiter(scope: "previews", limit: settings.previewsPerMinute)
        let writeLimiters = WriteLimiters(settings.writeLimits) { state.limiter(scope: $0, limit: $1, window: $2) }
        let cache = PageCache(ttl: settings.pageCacheTTL, clock: monotonic)
        let errors = FrontErrors(pages: pages)
        let signIn = SignInServers(upstream.signIn, clock: clock)
        let credentials = SessionCredentials(sessions: sessions, servers: signIn)
        let writer = upstream.writer
        let labels = LabelPolicies(source: upstream.stories, clock: clock)
        let visibility = Visibility(labels: labels)
        let keeper = SeenKeeper(
            local: seen,
            upstream: UpstreamSeenMarks(delay: settings.seenBatchDelay, clock: monotonic) { [markViewed = upstream.markViewed] uris, session in
                if let markViewed {
                    try await markViewed(uris, try DID(session.did))
                } else {
                    try await writer.markStoriesViewed(uris, as: try await credentials.credentials(for: session, now: clock()))
                }
            })
        let activity = ActivityCounts()
        let administration = household.directory.map { MemberAdministration(directory: $0, sessions: sessions, seen: seen.storage) }
        let photos = upstream.photos ?? writer.reader
        let previews = PreviewImages(photos: photos, limiter: previewLimiter, client: clientAddress)
        let controllers = Controllers(
            pages: StoryPages(
                pages: pages, seen: keeper, visibility: visibility, previews: previews,
                memories: Memories(),
                settings: settings,
                household: household.directory, errors: errors),
            signIn: SignInController(
                pages: pages, sessions: sessions, servers: signIn, clientAddress: clientAddress,
                limiter: signInLimiter, handleExample: settings.handleExample),
            writes: StoryWrites(
                pages: pages, credentials: credentials, errors: errors, pageCache: cache,
                publisher: publisher, limiter: uploadLimiter, clientAddress: clientAddress,
                storyOrigin: settings.canonicalOrigin, uploads: uploads, clock: clock,
                places: placeSearch, canCrossPost: settings.canCrossPost, labels: labels,
                audienceNote: settings.audienceNote, descriptions: household.descriptions, progress: UploadProgress(clock: clock)),
            social: SocialController(
                pages: pages, credentials: credentials,
                actions: SocialActions(writer: writer, pageCache: cache, visibility: visibility, activity: activity), visibility: visibility,
                activity: activity, errors: errors),
            household: household.directory.map {
                HouseholdController(pages: pages, directory: $0, pageCache: cache)
            },
            moderation: household.moderation.map { ModerationController(pages: pages, moderation: $0, pageCache: cache, labels: labels) },
            admin: administration.map { AdminController(pages: pages, administration: $0, pageCache: cache) },
            screens: household.directory.map { ScreenController(pages: pages, passes: $0, limiter: passLimiter) },
            shares: household.directory.map {
                ShareLinkController(
                    pages: pages, passes: $0, previews: previews, photos: photos, visibility: visibility, limiter: passLimiter, errors: errors)
            },
            operations: OperationsController(
                probes: probes, metricsFrom: settings.metricsFrom, sessions: sessions, imageWork: publisher.work))
        routes = controllers.routes
        self.writeLimiters = writeLimiters
        builder = ContextBuilder(
            origins: origins, sessions: sessions, stories: upstream.stories, credentials: credentials,
            household: household.directory, clock: clock)
        pageDeadline = settings.pageDeadline
        self.errors = errors
        pageCache = cache
        self.sessions = sessions
        self.seen = keeper
        self.credentials = credentials
        self.activity = activity
        self.uploads = uploads
        self.administration = administration
        audience = settings.audience
        frontDoor = { [household = household.directory] context in
            // A household without an owner has nothing to hide yet: its first visitor is sent to set it up.
            if try household?.needsOwner() == true { return .redirect(to: SiteURL.welcome.path, status: .found) }
            var response = try pages.render(
                "front-door", title: "Sign in",
                model: FrontDoor(
                    loginHref: SiteURL.login.path, name: settings.householdName ?? "A private household",
                    contact: settings.householdContact, notice: HomePage.notices[context.query("done") ?? ""]), context: context)
            response.headers["Cache-Control"] = "no-store"
            return response
        }
    }

    /// Whether a request carries the cookie of a live session (a browser signed in to this front) or of a paired
    /// screen: the composition root lets such a browser fetch a household's photos. (A screen may thereby fetch any
    /// photo whose address it knows; it learns addresses only from its kiosk's playlist.)
    public func admitsPhotos(_ request: Request) -> Bool {
        if sessionAdmission(request.head) == nil { return true }
        let now = builder.clock()
        for cookies in [CookieSettings(secure: true), CookieSettings(secure: false)] {
            if (try? builder.screen(request, cookies, now)) != nil { return true }
        }
        return false
    }

    /// Whether a request carries the cookie of a live session, or of a paired screen, that the front holds in memory:
    /// the server thread's fast path for photos asks this and, when it is false, leaves the request to the full path
    /// (``admitsPhotos(_:)``), which reads the database.
    public func admitsPhotosFromMemory(_ request: Request) -> Bool {
        switch visitorFromMemory(request) {
        case .session, .screen: true
        case .anonymous, nil: false
        }
    }

    /// Adds every front route to `router`: pages on its root group, whose errors become pages, and the scripts'
    /// JSON under `/api`, whose errors are JSON.
    public func register(on router: inout Router) {
        router.errorResponder = { [errors] error, _ in errors.render(error, group: .pages, context: nil) }
        // Cached pages go out from the server thread without a task; the rest take the full path.
        router.immediateResponder = { [self] request in cachedPage(request) }
        router.group("/api") { api in
            api.errorResponder = { [errors] error, _ in errors.render(error, group: .api, context: nil) }
            api.immediateResponder = { [self] request in cachedPage(request) }
            for route in routes where route.group == .api { add(route, to: &api) }
        }
        for route in routes where route.group == .pages { add(route, to: &router) }
    }

    func add(_ route: Route, to registry: inout some RouteRegistry) {
        let handler = middleware(for: route).wrapping(route.handler)
        let respond: Handler = { [self, builder, errors, pageCache] request in
            let context: RequestContext
            switch try builder.context(for: request, route: route) {
            case .answered(let response): return response
            case .ready(let ready): context = ready
            }
            do {
                guard route.cached, route.method == .get else { return try await handler(context) }
                let key = PageCache.key(request, visitor: visitorKey(context))
                return try await pageCache.page(key) { try await handler(context) }
            } catch let error as HTTPError {
                return errors.render(error, group: route.group, context: context)
            }
        }
        let options = RouteOptions(
            bodyLimit: route.bodyLimit, bodyStorage: route.bodyOnDisk ? .temporaryFile(directory: uploads) : .memory,
            admission: route.requiresSession ? (route.access == .posters ? posterAdmission : sessionAdmission) : nil)
        registry.on(route.method, route.page.pattern, options: options, respond)
    }

    /// What makes a signed-in visitor's pages theirs in the page cache: their session and their seen marks; a paired
    /// screen's are its own.
    func visitorKey(_ context: RequestContext) -> PageCache.Visitor? {
        if let screen = context.screen { return Self.screenKey(screen) }
        return visitorKey(context.session)
    }

    static func screenKey(_ screen: PairedScreen) -> PageCache.Visitor { PageCache.Visitor(id: "screen#" + screen.id) }

    func visitorKey(_ session: BrowserSession?) -> PageCache.Visitor? {
        session.map { PageCache.Visitor(id: $0.idHash, seen: seen.version(for: $0.did)) }
    }

    /// The fast path: a page the cache holds for exactly this request and visitor, or nil. Quick and never blocks:
    /// the session comes from the in-memory cache (a miss goes the full path, which reads the database).
    func cachedPage(_ request: Request) -> PreparedResponse? {
        guard request.method == .get || request.method == .head, let visitor = visitorFromMemory(request) else { return nil }
        let key: PageCache.Visitor? =
            switch visitor {
            case .anonymous: nil
            case .session(let session): visitorKey(session)
            case .screen(let screen): Self.screenKey(screen)
            }
        return pageCache.peek(PageCache.key(request, visitor: key))
    }

    /// Who a request is, as the full path would find (``ContextBuilder``), from memory alone.
    enum VisitorFromMemory {
        case anonymous
        case session(BrowserSession)
        case screen(PairedScreen)
    }

    /// The request's visitor from its cookies and what the front holds in memory; nil when only the database can
    /// tell (a session or screen not in memory), which leaves the request to the full path.
    func visitorFromMemory(_ request: Request) -> VisitorFromMemory? {
        let cookies = request.cookieValues(Self.fastPathCookies)
        let now = builder.clock()
        var session: BrowserSession?
        for id in cookies[0...1] {
            guard let id, !id.isEmpty else { continue }
            guard let cached = sessions.cachedSession(id: id, now: now.unixSeconds) else { return nil }
            session = cached
        }
        if let session { return .session(session) }
        // As on the full path, a screen's credential counts only without a session.
        guard let credential = ContextBuilder.screenCredential(cookies[2] ?? cookies[3]) else { return .anonymous }
        return builder.household?.knownScreen(credential: credential, now: now).map { .screen($0) }
    }

    /// The cookies the fast path reads: the session's two names (with and without `__Host-`), then the screen's.
    static let fastPathCookies = [
        CookieSettings(secure: true).sessionName, CookieSettings(secure: false).sessionName,
        CookieSettings(secure: true).screenName, CookieSettings(secure: false).screenName,
    ]

    /// Refuses a request whose cookies name no live session, from its head alone.
    var sessionAdmission: AdmissionCheck {
        { [sessions, builder] head in
            let now = builder.clock().unixSeconds
            for name in [CookieSettings(secure: true).sessionName, CookieSettings(secure: false).sessionName] {
                if let id = head.cookie(name), !id.isEmpty, (try? sessions.isLive(id: id, now: now)) == true { return nil }
            }
            return Self.signInToPost
        }
    }

    /// What an upload without a live session is answered, before any of its body is read.
    static let signInToPost = HTTPError(.unauthorized, "Sign in to post a story. Your photo was not sent.")

    /// `sessionAdmission` for a poster's upload: a guest's is refused too, before any of the body is read.
    var posterAdmission: AdmissionCheck {
        { [sessions, builder] head in
            let now = builder.clock().unixSeconds
            for name in [CookieSettings(secure: true).sessionName, CookieSettings(secure: false).sessionName] {
                guard let id = head.cookie(name), !id.isEmpty, let session = try? sessions.session(id: id, now: now) else { continue }
                if (try? builder.household?.role(of: session.did)) == .guest { return HTTPError(.forbidden, AccessMiddleware.guestsDoNotPost) }
                return nil
            }
            return Self.signInToPost
        }
    }

    /// What runs around each handler, outermost first: a household's routes are kept from strangers, upstream failures
    /// become the retry page (or JSON), read-only pages answer by the deadline however many upstream calls they make,
    /// every unsafe method is CSRF-checked, and each person's social writes are counted.
    func middleware(for route: Route) -> [any ContextMiddleware] {
        var chain: [any ContextMiddleware] = [
            AccessMiddleware(access: route.access, audience: audience, group: route.group, frontDoor: frontDoor),
            UpstreamFailureMiddleware(errors: errors, group: route.group),
        ]
        if route.method == .get { chain.append(DeadlineMiddleware(deadline: pageDeadline)) }
        chain.append(route.shareTarget ? ShareTargetMiddleware() : CSRFMiddleware())
        if let write = route.write {
            chain.append(WriteLimitMiddleware(write: write, limiters: writeLimiters, errors: errors, group: route.group))
        }
        if route.method == .get, route.group == .pages { chain.append(ActivityCountMiddleware(counts: activity)) }
        return chain
    }

    /// The front door of a household server, for strangers: a Sign in button and nothing of the household.
    struct FrontDoor: Encodable {
        let loginHref: String
        /// The name its owner chose to show strangers, or a plain description.
        let name: String
        /// How to reach the owner, as the owner wrote it; nil shows none.
        let contact: String?
        /// "You are signed out on this device.", after signing out.
        let notice: String?
    }

    /// How many token refreshes were made (tests check that concurrent requests share one).
    var refreshCount: Int { credentials.refreshCount.load(ordering: .relaxed) }

    /// Writes what is kept in memory (seen marks) before the server stops.
    public func flush() throws {
        try seen.local.flush()
    }

    /// Sends the seen marks waiting for the upstream (`markStoriesViewed`) now: the server calls it as it stops.
    public func sendWaitingMarks() async {
        await seen.upstream.flushAll()
    }

    /// Forgets expired sessions, sign-ins in progress and seen marks; the composition root calls it on a timer.
    public func prune(now: UTCTime) throws {
        try sessions.prune(now: now.unixSeconds)
        try seen.local.prune(now: now)
        seen.upstream.prune(before: now.adding(seconds: -Double(SeenMarks.retention)))
    }
}

/// The front's tunable behaviour, all plain values.
public struct FrontSettings: Sendable {
    /// Whom the household's stories are for. The server's default is `household` (`ServeConfiguration`); a front
    /// built without saying is public, as a hatk's reader is.
    public var audience = Audience.public
    /// The sign-in form's example handle: a made-up name in the server's handle domain, so the page a stranger may
    /// open names no member.
    public var handleExample = "yourname.home.test"
    /// The household's name for the front door (`--household-name`); nil shows a plain description.
    public var householdName: String?
    /// How a stranger reaches the household's owner (`--household-contact`), on the front door and `/help`.
    public var householdContact: String?

    /// Who will see a story posted here, for the create form: a remote hatk's stories are on the network (only a
    /// remote hatk can cross-post), the embedded household's are its members' or anyone's as `audience` says.
    var audienceNote: String {
        switch (audience, canCrossPost) {
        case (.household, _): "Only this household’s members see your story, for 24 hours."
        case (.public, true): "Stories on Grain are public: anyone on the network can see yours, for 24 hours."
        case (.public, false): "Stories on this server are public: anyone who reaches it sees yours, for 24 hours."
        }
    }
    /// How long each photo shows in the viewer and the kiosk.
    public var photoDurationMs = StoryPage.photoDuration * 1000
    /// Origins allowed to frame `/kiosk`; empty refuses framing like every other page.
    public var kioskFrameAncestors: [String] = []
    /// Client addresses that may read `/metrics` (`--metrics-from`); empty turns it off.
    public var metricsFrom = TrustedProxies.nobody
    /// The longest a page waits on the upstream in total.
    public var pageDeadline: Duration = .seconds(10)
    /// How long pages for visitors without a session are reused.
    public var pageCacheTTL: Duration = .seconds(1)
    public var uploadsPerMinute = 30
    /// Link previews and blurred stand-ins one client address may have made per minute (already made ones are free).
    public var previewsPerMinute = 30
    /// Sign-in attempts (`POST /login`) one client address may start per minute.
    public var signInsPerMinute = 20
    /// Pairing links and share links one member may make per minute.
    public var passesPerMinute = 10
    /// Comments, favourites, mutes, blocks, seen marks and reports one person may make.
    public var writeLimits = WriteLimit.defaults
    /// The configured public origin (`--public-url`), used for links that leave the site (the Bluesky post's link
    /// back); nil uses the origin the person posted from.
    public var canonicalOrigin: String?
    /// Whether the create form offers "Post to Bluesky": only where the post can reach it (a remote hatk writes to
    /// the member's own repository; the embedded household has no Bluesky).
    public var canCrossPost = true
    /// How long seen marks for an upstream with Grain's viewed state wait to be sent together (Grain: 30 s).
    public var seenBatchDelay: Duration = .seconds(30)

    public init() {}
}
