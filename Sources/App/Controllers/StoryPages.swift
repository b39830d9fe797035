import ATProto
import HTTPServer
import HatkClient
import Lexicon

/// Watching stories: the strip, the viewer's pages, profiles, the kiosk, and the JSON the scripts read.
struct StoryPages: Sendable {
    let pages: PageRenderer
    let seen: SeenMarks
    let settings: FrontSettings
    /// Only asked whether the household still needs its owner (the first-run page).
    let household: (any HouseholdDirectory)?
    let errors: FrontErrors

    /// `/`: the strip.
    func home(_ context: RequestContext) async throws -> Response {
        // A fresh household without any account starts at the first-run page.
        if try household?.needsOwner() == true { return .redirect(to: SiteURL.welcome.path, status: .found) }
        let model = try await HomePage.query(
            context.reader, seen: try seen.state(for: context.viewer), viewer: context.viewer,
            csrf: context.session == nil ? nil : context.csrf.value, durationMs: settings.photoDurationMs)
        return try pages.render("home", title: "Stories", model: model, scripts: ["js/viewer.js"], context: context)
    }

    /// `/stories/<actor>`: picks the story to open (the first not yet seen) and redirects to its permalink.
    func stories(_ context: RequestContext) async throws -> Response {
        let actor = try context.parameter("actor")
        guard let did = try await resolve(actor, context.reader) else {
            return errors.notFound("No one called \(actor) is here.", context: context)
        }
        let stories = try await context.reader.stories(of: did)
        let start = try seen.state(for: context.viewer).startIndex(in: stories)
        let last = context.query("at") == "last"
        guard let chosen = last ? stories.last : (stories.indices.contains(start) ? stories[start] : nil) else {
            return errors.notFound("\(actor) has no stories from the last 24 hours.", context: context)
        }
        let target = SiteURL.story(did: did.rawValue, rkey: chosen.rkey)
        return .redirect(to: target.with([("from", SiteURL.localPath(context.query("from")))]), status: .found)
    }

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
        guard
            var model = try await StoryPage.query(
                did: did, rkey: rkey, from: context.query("from"), reader: context.reader,
                seen: try seen.state(for: context.viewer), viewer: context.viewer, durationMs: settings.photoDurationMs,
                now: context.now)
        else { return errors.notFound("This story does not exist, or it was deleted.", context: context) }
        if let viewer = context.viewer {
            model.csrf = context.csrf.value
            model.deleteDialog = model.item.deleteHref != nil
            // Served means seen, so the strip is right even for visitors without scripts.
            seen.mark(model.item, account: viewer, now: context.now)
        }
        if context.viewer == did.rawValue {
            switch context.query("posted") {
            case "bluesky": model.notice = "Posted to your story and to Bluesky."
            case "bluesky-failed": model.notice = "Your story is posted, but the Bluesky post failed. You can share the link yourself."
            default: break
            }
        }
        return try pages.render(
            "story", title: "\(model.author.name)’s story", model: model, scripts: ["js/viewer.js"], bodyClass: "viewer-page",
            context: context)
    }

    /// `/profile/<actor>`: who someone is, a ringed avatar when they have stories, and their archive.
    func profile(_ context: RequestContext) async throws -> Response {
        let actor = try context.parameter("actor")
        guard
            let model = try await ProfilePage.query(
                actor: actor, reader: context.reader, seen: try seen.state(for: context.viewer), viewer: context.viewer,
                csrf: context.session == nil ? nil : context.csrf.value, durationMs: settings.photoDurationMs, now: context.now)
        else { return errors.notFound("No one called \(actor) is here.", context: context) }
        return try pages.render("profile", title: model.author.name, model: model, scripts: ["js/viewer.js"], context: context)
    }

    /// A DID as is; a handle through the upstream's profile lookup.
    func resolve(_ actor: String, _ reader: any StoryReading) async throws(HatkError) -> DID? {
        if let did = DID.parse(actor) { return did }
        guard Handle.isValid(actor), let profile = try await reader.profile(actor) else { return nil }
        return DID.parse(profile.did)
    }
}
