import ATProto
import Foundation
import HTTPServer
import HatkClient
import Lexicon

/// How the viewer and the kiosk play.
struct ViewerSettings: Sendable {
    var photoDurationMs = StoryPage.photoDuration * 1000
    /// Origins allowed to frame `/kiosk`; empty refuses framing like every other page.
    var kioskFrameAncestors: [String] = []
    /// The longest a page waits on the upstream in total: the configured upstream timeout.
    var pageDeadline: Duration = .seconds(10)
}

/// What the script viewer and the kiosk read, and where seen marks are written.
extension Front {
    /// The signed-in visitor's seen marks; anonymous visitors keep theirs in the browser.
    func seenState(_ session: BrowserSession?) throws -> SeenState {
        guard let session else { return .none }
        return try seen.state(for: session.did)
    }

    func recordSeen(_ item: StoryItem, account: String) throws {
        guard let uri = try? ATURI(item.uri), let created = UTCTime(iso8601: item.createdAt) else { return }
        try seen.markSeen(account: account, uri: uri, createdAt: created, now: clock())
    }

    /// `GET /api/stories/<actor>`: one author's active stories, with the visitor's seen marks.
    func storiesData(_ request: Request) async throws -> Response {
        let actor = try request.parameters.require("actor")
        let reader = try self.reader
        guard let did = try await resolve(actor, reader) else {
            return jsonError("NotFound", "No one called \(actor) is here.", status: .notFound)
        }
        let session = try currentSession(request)
        let stories = try await reader.stories(of: did)
        guard
            let data = AuthorStories.build(
                stories, seen: try seenState(session), viewer: session?.did, from: request.query("from"), now: clock())
        else { return jsonError("NotFound", "\(actor) has no stories from the last 24 hours.", status: .notFound) }
        return try json(data)
    }

    /// `POST /api/seen` with `uri`, `createdAt` and `csrf`: the script viewer's seen mark for a signed-in visitor.
    func markSeen(_ request: Request) throws -> Response {
        let form = try request.urlEncodedForm()
        try cookies.checkCSRF(request, formToken: form["csrf"], origin: try connected.origin)
        guard let session = try currentSession(request) else {
            return jsonError("AuthRequired", "Sign in to keep seen stories on the server.", status: .unauthorized)
        }
        guard let uri = try? ATURI(form["uri"] ?? ""), uri.collection == StoryRecord.collection,
            DID.parse(uri.authority) != nil, let created = UTCTime(iso8601: form["createdAt"] ?? "")
        else { return jsonError("InvalidRequest", "uri must be a story's at:// URI and createdAt its time.", status: .badRequest) }
        try seen.markSeen(account: session.did, uri: uri, createdAt: created, now: clock())
        return Response(status: .noContent)
    }

    /// `GET /kiosk`: the lean-back display. Without scripts it still turns, by a timed refresh that only
    /// this explicit kiosk page uses.
    func kiosk(_ request: Request) async throws -> Response {
        let filter = KioskPage.authorFilter(request.query("authors"))
        let slides = try await KioskPage.slides(reader: try reader, authors: filter, now: clock())
        let model = KioskPage.model(
            slides, index: Int(request.query("i") ?? "") ?? 0, authors: request.query("authors"),
            refreshSeconds: Int(request.query("refresh") ?? ""), durationMs: viewer.photoDurationMs)
        var response = try pages.render(
            "kiosk", title: "Kiosk", model: model, scripts: ["js/kiosk.js"], bodyClass: "kiosk-page")
        if let csp = response.headers["Content-Security-Policy"] {
            response.headers["Content-Security-Policy"] = SecurityHeaders.allowingFrames(
                csp, from: viewer.kioskFrameAncestors)
        }
        return response
    }

    /// `GET /api/kiosk`: every active story of every (or every listed) author, for the kiosk script.
    func kioskData(_ request: Request) async throws -> Response {
        let filter = KioskPage.authorFilter(request.query("authors"))
        let slides = try await KioskPage.slides(reader: try reader, authors: filter, now: clock())
        return try json(KioskPage.Playlist(slides: slides))
    }

    func json<T: Encodable>(_ value: T) throws -> Response {
        var response = Response.json(value)
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    func jsonError(_ error: String, _ message: String, status: HTTPStatus) -> Response {
        Response.json(["error": error, "message": message], status: status)
    }
}
