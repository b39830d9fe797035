import ATProto
import FrontState
import HTTPServer
import HatkClient
import Lexicon
import Readers

/// What the script viewer and the kiosk read, and where seen marks are written.
extension StoryPages {
    /// `GET /api/stories/<actor>`: one author's visible stories, with the visitor's seen marks.
    func storiesData(_ context: RequestContext) async throws -> Response {
        let actor = try context.parameter("actor")
        guard let did = try await resolve(actor, context.reader) else {
            return errors.json("NotFound", "No one called \(actor) is here.", status: .notFound)
        }
        let filter = await visibility.filter(for: context)
        guard !filter.relationships.isBlocked(did.rawValue) else {
            return errors.json("Blocked", "You and \(actor) have blocked each other, or one of you has.", status: .notFound)
        }
        let stories = try await context.reader.stories(of: did)
        if let data = AuthorStories.build(
            stories, seen: try seen.state(for: context.viewer), viewer: context.viewer, from: context.query("from"), now: context.now,
            filter: filter)
        {
            return json(data)
        }
        // Someone with nothing to show (no live stories, or only hidden ones): the viewer skips them.
        guard let profile = try await context.reader.profile(did.rawValue) else {
            return errors.json("NotFound", "No one called \(actor) is here.", status: .notFound)
        }
        let tile = AuthorTile(profile: profile.profileView, storyCount: 0, href: SiteURL.profile(actor: profile.handle).path)
        return json(AuthorStories(author: tile, items: [], start: 0))
    }

    /// `POST /api/seen` with `uri` and `csrf`: the script viewer's seen mark for a signed-in visitor. The time
    /// kept is the story's own, read from the story, never what the request says. With `flush=1` (the page is
    /// hiding) the visitor's waiting marks go to the upstream now, whatever became of this request's own mark.
    func markSeen(_ context: RequestContext) async throws -> Response {
        guard let session = context.session else {
            return errors.json("AuthRequired", "Sign in to keep seen stories on the server.", status: .unauthorized)
        }
        if seen.current == .unknown {
            // Learn where marks go from the one read that tells (never by trying the method).
            seen.observe(try await context.reader.storyAuthors(), signedIn: true)
        }
        guard context.form["flush"] == "1" else { return try await markSeen(context.form["uri"], context, session: session) }
        let marked: Response
        do {
            marked = context.form["uri"] == nil ? Response(status: .noContent) : try await markSeen(context.form["uri"], context, session: session)
        } catch {
            await seen.flush(session.did)
            throw error
        }
        await seen.flush(session.did)
        return marked
    }

    private func markSeen(_ raw: String?, _ context: RequestContext, session: BrowserSession) async throws -> Response {
        guard let uri = try? ATURI(raw ?? ""), uri.collection == StoryRecord.collection, DID.parse(uri.authority) != nil
        else { return errors.json("InvalidRequest", "uri must be a story's at:// URI.", status: .badRequest) }
        guard let story = try await context.reader.story(uri), let created = UTCTime(iso8601: story.createdAt) else {
            return errors.json("NotFound", "That story does not exist.", status: .notFound)
        }
        seen.mark(uri: uri, createdAt: created, session: session, now: context.now)
        return Response(status: .noContent)
    }

    /// `GET /kiosk`: the lean-back display. Without scripts it still turns, by a timed refresh that only this
    /// explicit kiosk page uses. Warned stories play only with `?warned=show`; the other options are
    /// ``KioskOptions``.
    func kiosk(_ context: RequestContext) async throws -> Response {
        let options = KioskOptions(query: context.query)
        let slides = try await kioskSlides(context, options)
        var model = KioskPage.model(
            slides, index: Int(context.query("i") ?? "") ?? 0, options: options, durationMs: settings.photoDurationMs)
        if context.screen != nil { model.exitHref = nil }
        return try pages.render(
            "kiosk", title: "Kiosk", model: model, scripts: ["js/kiosk.js"], bodyClass: "kiosk-page",
            frameAncestors: settings.kioskFrameAncestors,
            refresh: "\(model.slide == nil ? 60 : model.durationSeconds); url=\(model.nextHref)", context: context)
    }

    /// `GET /api/kiosk`: every active story of every (or every listed) author, for the kiosk script; with
    /// `memories=1`, a signed-in member's memories between them.
    func kioskData(_ context: RequestContext) async throws -> Response {
        json(KioskPage.Playlist(slides: try await kioskSlides(context, KioskOptions(query: context.query))))
    }

    /// Today's slides, and the memories between them when asked for: for a signed-in member, or a screen paired with
    /// memories (never for a tablet nobody signed in on or paired).
    func kioskSlides(_ context: RequestContext, _ options: KioskOptions) async throws -> [KioskPage.Slide] {
        let visibility = await visibility.filter(for: context)
        let today = try await KioskPage.slides(
            reader: context.reader, authors: KioskPage.authorFilter(options.authors), now: context.now, visibility: visibility,
            showWarned: options.showWarned)
        guard options.memories, context.readsAs != nil, context.screen?.memories ?? true else { return today }
        let groups = await memoryGroups(context, visibility, authors: try await walk(context, visibility))
        let memories = KioskPage.memorySlides(groups, now: context.now, visibility: visibility, showWarned: options.showWarned)
        return KioskPage.interleave(today, memories: memories)
    }

    func json<T: Encodable>(_ value: T) -> Response {
        var response = Response.json(value)
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}
