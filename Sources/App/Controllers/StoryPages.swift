import ATProto
import FrontState
import HTTPServer
import HatkClient
import Lexicon
import Readers

/// Watching stories: the strip, the viewer's pages, profiles, the kiosk, and the JSON the scripts read.
struct StoryPages: Sendable {
    let pages: PageRenderer
    let seen: SeenKeeper
    let visibility: Visibility
    let previews: PreviewImages
    /// "On this day" for signed-in members.
    let memories: Memories
    let settings: FrontSettings
    /// Only asked whether the household still needs its owner (the first-run page).
    let household: (any HouseholdDirectory)?
    let errors: FrontErrors

    /// `/`: the strip, and below it "Today", every story of the strip's authors as a grid.
    func home(_ context: RequestContext) async throws -> Response {
        // A fresh household without any account starts at the first-run page.
        if try household?.needsOwner() == true { return .redirect(to: SiteURL.welcome.path, status: .found) }
        let filter = await visibility.filter(for: context)
        let authors = try await walk(context, filter)
        let seenState = try seen.state(for: context.viewer)
        var model = HomePage.model(
            authors, seen: seenState, viewer: context.viewer, canPost: context.role?.posts ?? true,
            csrf: context.session == nil ? nil : context.csrf.value, durationMs: settings.photoDurationMs,
            chrome: await chrome(context))
        let stories = try await ActiveStories.of(authors, reader: context.reader)
        model.today = TodayGrid.tiles(stories, filter: filter, seen: seenState, viewer: context.viewer, now: context.now)
        model.memories = MemoriesPage.model(
            await memoryGroups(context, filter, authors: authors), filter: filter, now: context.now)
        model.notice = HomePage.notices[context.query("done") ?? ""]
        return try pages.render("home", title: "Stories", model: model, scripts: Self.viewerScripts, context: context)
    }

    /// The scripts of every page with the viewer: the favourite, comments and report layer first (it listens for the
    /// stories the viewer shows, from the first one on), then the viewer.
    static let viewerScripts = ["js/social.js", "js/viewer.js"]

    /// The visitor's walk: authors with live stories, newest first, without those they muted or blocked (or who block
    /// them). A signed-in answer also tells whether the upstream keeps Grain's viewed state.
    func walk(_ context: RequestContext, _ filter: StoryFilter) async throws(ReadError) -> [StoryAuthor] {
        let authors = try await context.reader.storyAuthors()
        seen.observe(authors, signedIn: context.viewer != nil)
        return filter.authors(authors)
    }

    /// What the viewer offers: the report reasons from the upstream's labels, and the visitor's token.
    func chrome(_ context: RequestContext) async -> StoryPage.Chrome {
        let labels = await visibility.labels.current()
        return StoryPage.Chrome(
            signedIn: context.viewer != nil, csrf: context.session == nil ? nil : context.csrf.value,
            loginHref: SiteURL.login.with([("next", SiteURL.localPath(context.request.path))]),
            reasons: ReportReason.from(labels.definitions), canShare: context.role?.posts == true)
    }

    /// `/stories/<actor>`: picks the story to open (the first not yet seen) and redirects to its permalink. An author
    /// with nothing left to show (all hidden, or only hide-labelled stories counted by the strip) is skipped for the
    /// next one in the walk, so following the strip never lands on a blank page.
    func stories(_ context: RequestContext) async throws -> Response {
        let actor = try context.parameter("actor")
        guard let did = try await resolve(actor, context.reader) else {
            return errors.notFound("No one called \(actor) is here.", context: context)
        }
        let filter = await visibility.filter(for: context)
        let state = try seen.state(for: context.viewer)
        let last = context.query("at") == "last"
        let from = SiteURL.localPath(context.query("from"))
        var current = did
        var order: [String]?
        for _ in 0..<Self.maxSkips {
            let stories = filter.visible(try await context.reader.stories(of: current))
            let start = state.startIndex(in: stories)
            if let chosen = last ? stories.last : (stories.indices.contains(start) ? stories[start] : nil) {
                let target = SiteURL.story(did: current.rawValue, rkey: chosen.rkey)
                return .redirect(to: target.with([("from", from)]), status: .found)
            }
            // Nothing to show here: the next author in the walk (the previous one when walking back).
            if order == nil { order = state.ordered(try await walk(context, filter)).map(\.profile.did) }
            guard let order, let position = order.firstIndex(of: current.rawValue) else { break }
            let neighbour = last ? position - 1 : position + 1
            guard order.indices.contains(neighbour), let next = DID.parse(order[neighbour]) else {
                // Walked past the end of the strip: back where the walk started.
                return .redirect(to: from ?? SiteURL.home.path, status: .found)
            }
            current = next
        }
        return errors.notFound("\(actor) has no stories from the last 24 hours.", context: context)
    }

    /// Authors tried in a row before giving up, when many have nothing to show.
    static let maxSkips = 20

    /// `/profile/<did>/story/<rkey>`: one story, with links that walk the visitor's strip order.
    func story(_ context: RequestContext) async throws -> Response {
        let rawDID = try context.parameter("did")
        let rkey = try context.parameter("rkey")
        guard let did = try await resolve(rawDID, context.reader), RecordKey.isValid(rkey) else {
            return errors.notFound("This story does not exist.", context: context)
        }
        if did.rawValue != rawDID {
            // Grain's permalinks name a DID; a handle is accepted and redirected to the canonical form.
            return .redirect(to: SiteURL.story(did: did.rawValue, rkey: rkey).path, status: .movedPermanently)
        }
        let filter = await visibility.filter(for: context)
        if filter.relationships.isBlocked(did.rawValue) { return blockedPage(did, context: context) }
        async let authorsCall = walk(context, filter)
        async let storiesCall = context.reader.stories(of: did)
        let (authors, stories) = (try await authorsCall, try await storiesCall)
        guard
            var model = try await StoryPage.query(
                did: did, rkey: rkey, from: context.query("from"), authors: authors, stories: stories, reader: context.reader,
                seen: try seen.state(for: context.viewer), viewer: context.viewer, durationMs: settings.photoDurationMs,
                now: context.now, filter: filter, revealed: context.query("show") == "1")
        else { return errors.notFound("This story does not exist, or it was deleted.", context: context) }
        model.chrome = await chrome(context)
        if let session = context.session {
            model.csrf = context.csrf.value
            model.deleteDialog = model.item.deleteHref != nil
            // Served means seen, so the strip is right even for visitors without scripts.
            seen.mark(model.item, session: session, now: context.now)
        }
        if context.viewer == did.rawValue, settings.canCrossPost {
            switch context.query("posted") {
            case "bluesky": model.notice = "Posted to your story and to Bluesky."
            case "bluesky-failed": model.notice = "Your story is posted, but the Bluesky post failed. You can share the link yourself."
            default: break
            }
        }
        return try pages.render(
            "story", title: "\(model.author.name)’s story", model: model, scripts: Self.viewerScripts, bodyClass: "viewer-page",
            meta: StoryPage.linkPreview(model, origin: context.origin), context: context)
    }

    /// What a visitor sees of an account blocked either way.
    func blockedPage(_ did: DID, context: RequestContext) -> Response {
        errors.page(
            status: .notFound, heading: "Not available",
            message: "You and this account have blocked each other’s stories, or one of you has. Blocks are listed on your Muted and blocked page.",
            context: context)
    }

    /// `/profile/<actor>`: who someone is, a ringed avatar when they have stories, and their archive.
    func profile(_ context: RequestContext) async throws -> Response {
        let actor = try context.parameter("actor")
        let filter = await visibility.filter(for: context)
        guard
            let model = try await ProfilePage.query(
                actor: actor, reader: context.reader, seen: try seen.state(for: context.viewer), viewer: context.viewer,
                csrf: context.session == nil ? nil : context.csrf.value, durationMs: settings.photoDurationMs, now: context.now,
                filter: filter, chrome: await chrome(context))
        else { return errors.notFound("No one called \(actor) is here.", context: context) }
        return try pages.render("profile", title: model.author.name, model: model, scripts: Self.viewerScripts, context: context)
    }

    /// A DID as is; a handle through the upstream's profile lookup.
    func resolve(_ actor: String, _ reader: any StoryReading) async throws(ReadError) -> DID? {
        if let did = DID.parse(actor) { return did }
        guard Handle.isValid(actor), let profile = try await reader.profile(actor) else { return nil }
        return DID.parse(profile.did)
    }
}

extension StoryPages {
    /// The routes this controller answers, one line per method and page.
    var routes: [Route] {
        [
            Route(method: .get, page: .home, access: .viewers, cached: true, handler: home),
            Route(method: .get, page: .help, access: .anyone, cached: true, handler: help),
            Route(method: .get, page: .stories(actor: .key), access: .viewers, handler: stories),
            Route(method: .get, page: .story(did: .key, rkey: .key), access: .viewers, cached: true, handler: story),
            Route(method: .get, page: .profile(actor: .key), access: .viewers, cached: true, handler: profile),
            Route(method: .get, page: .memories(years: .key), access: .signedIn, cached: true, handler: memories),
            Route(method: .get, page: .kiosk, access: .screens, cached: true, handler: kiosk),
            Route(method: .get, page: .kioskSettings, access: .viewers, handler: kioskSettings),
            Route(method: .get, page: .kioskQR, access: .viewers, handler: kioskQR),
            Route(method: .get, page: .storyQR(did: .key, rkey: .key), access: .viewers, handler: storyQR),
            Route(method: .get, page: .storiesData(actor: .key), access: .viewers, group: .api, cached: true, handler: storiesData),
            Route(method: .get, page: .kioskData, access: .screens, group: .api, cached: true, handler: kioskData),
            Route(method: .post, page: .seen, access: .signedIn, group: .api, bodyLimit: 4096, write: .seen, handler: markSeen),
            Route(method: .get, page: .storyPreview(did: .key, rkey: .key), access: .viewers, cached: true, handler: preview),
            Route(method: .get, page: .storyBlurred(did: .key, rkey: .key), access: .viewers, cached: true, handler: blurred),
        ]
    }
}
