import ATProto
import Foundation
import FrontState
import HTTPServer
import HatkClient
import Lexicon
import Logging
import Readers

/// Share links: on one of their own stories, a member makes `/s/<token>`, which shows that one story (its photo, the
/// author's name, the place) to whoever has it, until the story's 24 hours end or the author revokes it, and nothing
/// else. Only the embedded household has them; a public server's stories need no link.
struct ShareLinkController: Sendable {
    let pages: PageRenderer
    let passes: any HouseholdPasses
    let previews: PreviewImages
    let photos: any PhotoSource
    let visibility: Visibility
    /// Share links one member may make per minute.
    let limiter: any RateLimiting
    let errors: FrontErrors

    /// What any link that does not work answers, whatever the reason: it tells nothing of whether it ever existed.
    static let linkGone = "This link does not work: the story’s 24 hours are over, its author took the link back, or there never was such a link."

    struct ListModel: Encodable {
        var csrf: String
        var action: String
        var storyHref: String
        var thumb: String
        /// The link just made, shown once.
        var link: String?
        var notice: String?
        var shares: [Row]
    }

    struct Row: Encodable {
        var csrf: String
        var action: String
        var id: String
        var created: String
        var expires: String
    }

    /// `GET /profile/<did>/story/<rkey>/shares`: the author's live links to the story, each with Revoke.
    func list(_ context: RequestContext) async throws -> Response {
        guard let (session, story) = try await ownStory(context) else { return signIn(context) }
        return try render(context, session: session, story: story)
    }

    /// `POST /profile/<did>/story/<rkey>/shares`: a new link (`action=create`) or a revocation (`action=revoke`, `share`).
    func change(_ context: RequestContext) async throws -> Response {
        guard let (session, story) = try await ownStory(context) else { return signIn(context) }
        let uri = try ATURI(story.uri)
        switch context.form["action"] {
        case "revoke":
            let revoked = try passes.revokeShare(id: context.form["share"] ?? "", by: session.did, now: context.now)
            return try render(
                context, session: session, story: story,
                notice: revoked ? "The link is revoked: it no longer opens anything." : "That link was already revoked.")
        case "create":
            if case .limited(let wait) = try limiter.admit("share " + session.did, now: context.unixNow) {
                throw HTTPError(.tooManyRequests, "You made many links just now. Wait a minute and try again.", headers: ["Retry-After": "\(wait)"])
            }
            guard let created = UTCTime(iso8601: story.createdAt) else { throw HTTPError(.notFound, "This story does not exist.") }
            let expires = created.adding(seconds: Double(StoryRecord.lifetime.components.seconds))
            let token = try passes.createShare(of: uri, by: session.did, expiresAt: expires, now: context.now)
            log.info("\(session.handle) made a share link")
            return try render(context, session: session, story: story, link: context.origin + SiteURL.sharedStory(token: token).path)
        default:
            throw HTTPError(.badRequest, "That is not something this page can do.")
        }
    }

    /// The signed-in visitor's own live story named by the path; nil for a stranger, 404 for anyone else's.
    func ownStory(_ context: RequestContext) async throws -> (BrowserSession, StoryView)? {
        guard let session = context.session else { return nil }
        let did = try context.parameter("did")
        let rkey = try context.parameter("rkey")
        guard did == session.did, RecordKey.isValid(rkey),
            let story = try await context.reader.story(ATURI(authority: did, collection: StoryRecord.collection, rkey: rkey)),
            story.expired != true
        else { throw HTTPError(.notFound, "You can share only your own stories, while their 24 hours last.") }
        return (session, story)
    }

    func render(_ context: RequestContext, session: BrowserSession, story: StoryView, link: String? = nil, notice: String? = nil) throws -> Response {
        let uri = try ATURI(story.uri)
        let action = SiteURL.storyShares(did: uri.authority, rkey: uri.rkey).path
        let model = ListModel(
            csrf: context.csrf.value, action: action,
            storyHref: SiteURL.story(did: uri.authority, rkey: uri.rkey).path, thumb: story.thumb, link: link, notice: notice,
            shares: try passes.shares(of: uri, now: context.now).map {
                Row(csrf: context.csrf.value, action: action, id: $0.id, created: Self.minute($0.createdAt), expires: Self.minute($0.expiresAt))
            })
        return try pages.render("shares", title: "Share links", model: model, form: true, context: context)
    }

    static func minute(_ iso: String) -> String { String(iso.prefix(16)).replacingOccurrences(of: "T", with: " ") + " UTC" }

    func signIn(_ context: RequestContext) -> Response {
        .redirect(to: SiteURL.login.with([("next", SiteURL.localPath(context.request.path))]), status: .found)
    }
}

extension ShareLinkController {
    /// The routes this controller answers, one line per method and page.
    var routes: [Route] {
        [
            Route(method: .get, page: .storyShares(did: .key, rkey: .key), access: .posters, handler: list),
            Route(method: .post, page: .storyShares(did: .key, rkey: .key), access: .posters, bodyLimit: 4096, handler: change),
            // The link is the credential: anyone who has it, and nobody else.
            Route(method: .get, page: .sharedStory(token: .key), access: .anyone, handler: shared),
            Route(method: .get, page: .sharedPhoto(token: .key), access: .anyone, handler: photo),
            Route(method: .get, page: .sharedPreview(token: .key), access: .anyone, handler: preview),
        ]
    }
}
