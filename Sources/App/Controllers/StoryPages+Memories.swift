import ATProto
import FrontState
import HTTPServer
import HatkClient
import Lexicon
import Logging

/// "On this day": the viewer over one year of a member's memories.
extension StoryPages {
    /// `GET /memories/<years>?i=<n>`: story `n` of the memories from `years` ago, in the viewer. Memories are only
    /// for signed-in members: anyone else is sent to sign in.
    func memories(_ context: RequestContext) async throws -> Response {
        guard context.viewer != nil else {
            return .redirect(to: SiteURL.login.with([("next", SiteURL.localPath(context.request.path))]), status: .found)
        }
        guard let years = Int(try context.parameter("years")), years > 0 else {
            return errors.notFound("There are no such memories.", context: context)
        }
        let filter = await visibility.filter(for: context)
        let groups = await memoryGroups(context, filter, authors: try await walk(context, filter))
        guard let group = groups.first(where: { $0.years == years }) else {
            return errors.notFound("No memories from \(Plural.count(years, "year")) ago today.", context: context)
        }
        var model = MemoriesPage.viewer(
            group, index: Int(context.query("i") ?? "") ?? 0, seen: try seen.state(for: context.viewer), viewer: context.viewer,
            durationMs: settings.photoDurationMs, now: context.now, filter: filter, revealed: context.query("show") == "1")
        model.chrome = await chrome(context)
        model.csrf = context.session == nil ? nil : context.csrf.value
        return try pages.render(
            "story", title: "Memories, \(group.label)", model: model, scripts: Self.viewerScripts, bodyClass: "viewer-page",
            context: context)
    }

    /// The member's memories; a failing upstream leaves the home page without them rather than failing it.
    func memoryGroups(_ context: RequestContext, _ filter: StoryFilter, authors: [StoryAuthor]) async -> [Memories.Group] {
        do {
            return try await memories.groups(for: context, authors: authors, filter: filter)
        } catch {
            log.warning("memories unavailable: \(error)")
            return []
        }
    }
}
