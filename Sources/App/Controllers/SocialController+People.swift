import ATProto
import FrontState
import HTTPServer
import HatkClient
import Lexicon
import Readers

/// Muting and blocking accounts, the page that lists them, and the visitor's activity.
extension SocialController {
    /// `POST /profile/<actor>/mute`, with `undo=1` to unmute.
    func mute(_ context: RequestContext) async throws -> Response {
        guard let actor = DID.parse(try context.parameter("actor")) else { throw HTTPError(.notFound, "No such account.") }
        let profile = SiteURL.profile(actor: actor.rawValue).path
        guard let session = context.session, let credentials = try await credentials(context, session) else {
            return signInRedirect(context, next: profile)
        }
        guard actor.rawValue != session.did else { throw HTTPError(.badRequest, "You cannot mute yourself.") }
        let undo = context.form["undo"] == "1"
        let returning = back(context, fallback: profile)
        do {
            try await actions.mute(actor, undo: undo, viewer: session.did, as: credentials)
        } catch let error as HatkError {
            if let answer = refusal(error, context, what: undo ? "unmute" : "mute", next: returning) { return answer }
            throw error
        }
        return done(context, to: returning, json: ["muted": .bool(!undo)])
    }

    /// `POST /profile/<actor>/block`, with `undo=1` to unblock (the block record is looked up here, never taken from
    /// the form).
    func block(_ context: RequestContext) async throws -> Response {
        guard let actor = DID.parse(try context.parameter("actor")) else { throw HTTPError(.notFound, "No such account.") }
        let profile = SiteURL.profile(actor: actor.rawValue).path
        guard let session = context.session, let credentials = try await credentials(context, session) else {
            return signInRedirect(context, next: profile)
        }
        guard actor.rawValue != session.did else { throw HTTPError(.badRequest, "You cannot block yourself.") }
        let undo = context.form["undo"] == "1"
        let returning = back(context, fallback: profile)
        var existing: ATURI?
        if undo {
            visibility.forget(session.did)
            let relationships = await visibility.relationships(of: session.did, reader: context.reader, now: context.unixNow)
            var uri = relationships.blocking[actor.rawValue]
            if uri?.isEmpty != false { uri = try await context.reader.profile(actor.rawValue)?.viewer?.blocking }
            guard let uri, let parsed = try? ATURI(uri) else { return done(context, to: returning, json: ["blocked": .bool(false)]) }
            existing = parsed
        }
        do {
            try await actions.block(actor, undo: existing, viewer: session.did, now: context.now, as: credentials)
        } catch let error as HatkError {
            if let answer = refusal(error, context, what: undo ? "unblock" : "block", next: returning) { return answer }
            throw error
        }
        return done(context, to: returning, json: ["blocked": .bool(!undo)])
    }

    /// `GET /muted`: whom the visitor muted or blocks, each with undo.
    func mutedPage(_ context: RequestContext) async throws -> Response {
        guard context.session != nil else { return signInRedirect(context, next: SiteURL.muted.path) }
        var available = true
        var muted: [GraphItem] = []
        var blocked: [GraphItem] = []
        do {
            async let mutesCall = context.reader.mutes(limit: 100, cursor: nil)
            async let blocksCall = context.reader.blocks(limit: 100, cursor: nil)
            (muted, blocked) = (try await mutesCall.items, try await blocksCall.items)
        } catch let error as ReadError where error.kind == .unsupported {
            available = false
        }
        let person = { (item: GraphItem, action: String) in
            MutedPageModel.Person(
                name: item.displayName.flatMap { $0.isEmpty ? nil : $0 } ?? item.handle ?? item.did, handle: item.handle ?? item.did,
                profileHref: SiteURL.profile(actor: item.did).path, action: action)
        }
        let model = MutedPageModel(
            csrf: context.csrf.value, muted: muted.map { person($0, SiteURL.mute(actor: $0.did).path) },
            blocked: blocked.map { person($0, SiteURL.block(actor: $0.did).path) }, available: available)
        return try pages.render("muted", title: "Muted and blocked", model: model, context: context)
    }

    /// `GET /activity`: who favourited or commented on the visitor's stories, newest first. Opening it marks
    /// everything up to now as seen (Grain's `lastSeenNotifications` preference).
    func activityPage(_ context: RequestContext) async throws -> Response {
        guard let session = context.session, let viewer = DID.parse(session.did) else {
            return signInRedirect(context, next: SiteURL.activity.path)
        }
        let cursor = context.query("cursor").map { String($0.prefix(64)) }
        let filter = await visibility.filter(for: context)
        let model: ActivityPageModel
        do {
            async let notifications = StoryNotifications.page(context.reader, from: cursor, want: 30)
            async let archive = context.reader.storyArchive(of: viewer, limit: 50, cursor: nil)
            let (found, stories) = (try await notifications, (try? await archive)?.stories ?? [])
            model = activityModel(found, stories: stories, filter: filter, context: context)
        } catch let error as ReadError where error.kind == .unsupported {
            let model = ActivityPageModel(entries: [], moreHref: nil, available: false, mutedHref: SiteURL.muted.path)
            return try pages.render("activity", title: "Activity", model: model, context: context)
        }
        // Looking changes nothing (a GET must not): the page's form, sent by its script as it opens or by the
        // person's button, marks what it shows as seen.
        var shown = model
        if cursor == nil, model.entries.contains(where: \.unseen) {
            shown.markSeen = .init(action: SiteURL.activitySeen.path, csrf: context.csrf.value, at: context.now.iso8601)
        }
        var page = context
        page.activityCount = nil
        return try pages.render("activity", title: "Activity", model: shown, scripts: ["js/activity.js"], context: page)
    }

    /// `POST /activity/seen` with `at`: the visitor's activity is seen up to `at` (the moment their activity page was
    /// made, never later than now), so what arrived since stays new.
    func markActivitySeen(_ context: RequestContext) async throws -> Response {
        guard let session = context.session, let credentials = try await credentials(context, session) else {
            return signInRedirect(context, next: SiteURL.activity.path)
        }
        let at = min(UTCTime(iso8601: context.form["at"] ?? "") ?? context.now, context.now)
        do {
            try await actions.markNotificationsSeen(now: at, as: credentials)
        } catch let error as HatkError {
            if let answer = refusal(error, context, what: "mark the activity as seen", next: SiteURL.activity.path) { return answer }
            throw error
        }
        activity.forget(session.did)
        return done(context, to: SiteURL.activity.path)
    }

    func activityModel(
        _ page: StoryNotifications.Page, stories: [StoryView], filter: StoryFilter, context: RequestContext
    ) -> ActivityPageModel {
        let byURI = Dictionary(stories.map { ($0.uri, $0) }, uniquingKeysWith: { first, _ in first })
        let entries = page.items.compactMap { item, unseen -> ActivityPageModel.Entry? in
            let what: String
            switch item.reason {
            case NotificationReason.storyFavorite: what = "favourited your story"
            case NotificationReason.storyComment: what = "commented on your story"
            default: return nil
            }
            let story = item.storyUri.flatMap { byURI[$0] }
            let storyURI = item.storyUri.flatMap { try? ATURI($0) }
            return ActivityPageModel.Entry(
                who: item.author.name, profileHref: SiteURL.profile(actor: item.author.did).path, what: what,
                comment: item.commentText.map { String($0.prefix(300)) },
                ago: RelativeTime.short(UTCTime(iso8601: item.createdAt) ?? context.now, now: context.now), createdAt: item.createdAt,
                storyHref: storyURI.map { SiteURL.story(did: $0.authority, rkey: $0.rkey).path },
                // Only a story whose labels are known here gets a picture, blurred when it carries a warning.
                thumb: story.map { StoryItem.thumb($0, decision: filter.decision($0)) }, unseen: unseen)
        }
        return ActivityPageModel(
            entries: entries, moreHref: page.cursor.map { SiteURL.activity.with([("cursor", $0)]) }, available: true,
            mutedHref: SiteURL.muted.path)
    }
}
