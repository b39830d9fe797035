import HTTPServer

/// One route of the front: a method and page kind, how its errors render, and the controller method that
/// answers it. The whole table is `Controllers.routes`.
struct Route: Sendable {
    /// How a route's errors are rendered: an HTML page, or the viewer scripts' JSON.
    enum Group: Sendable { case pages, api }

    let method: HTTPMethod
    let kind: SiteURL.Kind
    var group: Group = .pages
    /// The largest body accepted; nil is the router's default (64 KiB).
    var bodyLimit: Int?
    /// Anonymous visitors' answers may be reused for a moment (the page cache).
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
    let operations: OperationsController

    /// Every route of the front. A new page is its `SiteURL` case and a line here naming its controller method.
    var routes: [Route] {
        var routes = [
            Route(method: .get, kind: .home, cached: true, handler: pages.home),
            Route(method: .get, kind: .stories, handler: pages.stories),
            Route(method: .get, kind: .story, cached: true, handler: pages.story),
            Route(method: .get, kind: .profile, cached: true, handler: pages.profile),
            Route(method: .get, kind: .memories, cached: true, handler: pages.memories),
            Route(method: .get, kind: .kiosk, cached: true, handler: pages.kiosk),
            Route(method: .get, kind: .kioskSettings, handler: pages.kioskSettings),
            Route(method: .get, kind: .kioskQR, handler: pages.kioskQR),
            Route(method: .get, kind: .storyQR, handler: pages.storyQR),
            Route(method: .get, kind: .healthz, anyHost: true, handler: operations.healthz),
            Route(method: .get, kind: .readyz, anyHost: true, handler: operations.readyz),
            Route(method: .get, kind: .metrics, anyHost: true, handler: operations.metrics),
            Route(method: .get, kind: .storiesData, group: .api, cached: true, handler: pages.storiesData),
            Route(method: .get, kind: .kioskData, group: .api, cached: true, handler: pages.kioskData),
            Route(method: .post, kind: .seen, group: .api, bodyLimit: 4096, handler: pages.markSeen),
            Route(method: .get, kind: .login, handler: signIn.loginForm),
            Route(method: .post, kind: .login, bodyLimit: 4096, handler: signIn.startSignIn),
            Route(method: .get, kind: .authCallback, handler: signIn.finishSignIn),
            Route(method: .post, kind: .logout, bodyLimit: 4096, handler: signIn.logout),
            Route(method: .get, kind: .clientMetadata, handler: signIn.clientMetadata),
            Route(method: .get, kind: .create, handler: writes.createForm),
            Route(
                method: .post, kind: .create, bodyLimit: StoryWrites.maxUploadBytes, requiresSession: true, bodyOnDisk: true,
                handler: writes.createStory),
            Route(
                method: .post, kind: .createInspect, group: .api, bodyLimit: StoryWrites.inspectBytes + 64 * 1024, requiresSession: true,
                handler: writes.inspectPhoto),
            Route(method: .get, kind: .placesData, group: .api, handler: writes.placesData),
            Route(method: .get, kind: .manifest, handler: WebManifest.respond),
            Route(
                method: .post, kind: .share, bodyLimit: StoryWrites.maxUploadBytes, requiresSession: true, bodyOnDisk: true,
                shareTarget: true, handler: writes.sharePhoto),
            Route(method: .get, kind: .deleteStory, handler: writes.deleteConfirm),
            Route(method: .post, kind: .deleteStory, bodyLimit: 4096, handler: writes.deleteStory),
            Route(method: .get, kind: .storyPreview, cached: true, handler: pages.preview),
            Route(method: .get, kind: .storyBlurred, cached: true, handler: pages.blurred),
            Route(method: .post, kind: .favorite, bodyLimit: 4096, handler: social.favorite),
            Route(method: .get, kind: .comments, handler: social.commentsPage),
            Route(method: .post, kind: .comments, bodyLimit: 16384, handler: social.postComment),
            Route(method: .post, kind: .deleteComment, bodyLimit: 4096, handler: social.deleteComment),
            Route(method: .get, kind: .commentsData, group: .api, handler: social.commentsData),
            Route(method: .get, kind: .report, handler: social.reportForm),
            Route(method: .post, kind: .report, bodyLimit: 16384, handler: social.report),
            Route(method: .post, kind: .mute, bodyLimit: 4096, handler: social.mute),
            Route(method: .post, kind: .block, bodyLimit: 4096, handler: social.block),
            Route(method: .get, kind: .muted, handler: social.mutedPage),
            Route(method: .get, kind: .activity, handler: social.activityPage),
        ]
        if let moderation {
            routes += [
                Route(method: .get, kind: .adminReports, handler: moderation.reports),
                Route(method: .post, kind: .adminReports, bodyLimit: 4096, handler: moderation.resolve),
            ]
        }
        if let household {
            routes += [
                Route(method: .get, kind: .welcome, handler: household.welcome),
                Route(method: .post, kind: .welcome, bodyLimit: 8192, handler: household.createOwner),
                Route(method: .get, kind: .invite, handler: household.inviteForm),
                Route(method: .post, kind: .invite, bodyLimit: 4096, handler: household.createInvite),
                Route(method: .get, kind: .join, handler: household.joinForm),
                Route(method: .post, kind: .join, bodyLimit: 8192, handler: household.join),
            ]
        }
        if let admin {
            routes += [
                Route(method: .get, kind: .admin, handler: admin.page),
                Route(method: .post, kind: .admin, bodyLimit: 4096, handler: admin.change),
            ]
        }
        return routes
    }
}
