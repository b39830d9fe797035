import ATProto
import FrontState
import HTTPServer
import HatkClient
import Lexicon
import Readers

/// What a signed-in person does around a story: favourites, comments, reports, mutes and blocks, and the pages that
/// list them. Every form works without scripts (POST, then a redirect back); the viewer's scripts send the same forms
/// with `Accept: application/json` and get a small JSON answer instead of the redirect.
struct SocialController: Sendable {
    let pages: PageRenderer
    let credentials: SessionCredentials
    let actions: SocialActions
    let visibility: Visibility
    let activity: ActivityCounts
    let errors: FrontErrors

    /// The comments a page shows at once.
    static let commentsPerPage = 20

    // MARK: Helpers

    /// The story a path names: a DID, a valid record key; nil otherwise.
    func storyURI(_ context: RequestContext) throws -> ATURI? {
        guard let did = DID.parse(try context.parameter("did")) else { return nil }
        let rkey = try context.parameter("rkey")
        guard RecordKey.isValid(rkey) else { return nil }
        return ATURI(authority: did.rawValue, collection: StoryRecord.collection, rkey: rkey)
    }

    /// Whether the answer should be JSON: the viewer's scripts ask for it.
    func wantsJSON(_ context: RequestContext) -> Bool {
        (context.request.headers["Accept"] ?? "").contains("application/json")
    }

    func signInRedirect(_ context: RequestContext, next: String) -> Response {
        if wantsJSON(context) { return errors.json("AuthRequired", "Sign in first.", status: .unauthorized) }
        return .redirect(to: SiteURL.login.with([("next", next)]), status: .found)
    }

    /// Where a form goes back to: its `return` field when it is a path here, else `fallback`.
    func back(_ context: RequestContext, fallback: String) -> String {
        SiteURL.localPath(context.form["return"]) ?? fallback
    }

    /// The session's credentials, or nil when the grant is gone (the person must sign in again).
    func credentials(_ context: RequestContext, _ session: BrowserSession) async throws -> DPoPCredentials? {
        do { return try await credentials.credentials(for: session, now: context.now) } catch is SessionCredentials.SignInRequired { return nil }
    }

    /// An upstream refusal in words, for a form or the scripts; nil for failures the retry page handles. A grant
    /// that is gone sends the person to sign in again and then to `next`.
    func refusal(_ error: HatkError, _ context: RequestContext, what: String, next: String) -> Response? {
        if error.needsSignIn { return signInRedirect(context, next: next) }
        guard case .http(let status, let code) = error.kind, (400..<500).contains(status) else { return nil }
        let message = "The story server refused to \(what) (\(code.prefix(120)))."
        if wantsJSON(context) { return errors.json("Refused", message, status: .badRequest) }
        return errors.page(status: .badRequest, heading: "Not done", message: message, context: context)
    }

    /// The answer to a write that worked: `json` to the scripts, otherwise back to `location`.
    func done(_ context: RequestContext, to location: String, json: [String: JSONValue] = [:]) -> Response {
        if wantsJSON(context) {
            var response = Response.json(JSONValue.object(json))
            response.headers["Cache-Control"] = "no-store"
            return response
        }
        return .redirect(to: location)
    }

    // MARK: Favourites

    /// `POST /profile/<did>/story/<rkey>/favorite`: favourites the story, or with `fav=<its favourite's URI>` takes
    /// the favourite back. Answers `{"fav": uri|null}` to scripts.
    func favorite(_ context: RequestContext) async throws -> Response {
        guard let story = try storyURI(context) else { throw HTTPError(.notFound, "This story does not exist.") }
        let page = SiteURL.story(did: story.authority, rkey: story.rkey).path
        guard let session = context.session, let credentials = try await credentials(context, session) else {
            return signInRedirect(context, next: page)
        }
        let returning = back(context, fallback: page)
        do {
            if let raw = context.form["fav"], !raw.isEmpty {
                guard let favorite = try? ATURI(raw), favorite.authority == session.did, favorite.collection == FavoriteRecord.collection
                else { throw HTTPError(.badRequest, "That is not one of your favourites.") }
                try await actions.unfavorite(favorite, as: credentials)
                return done(context, to: returning, json: ["fav": .null])
            }
            let uri = try await actions.favorite(story, now: context.now, as: credentials)
            return done(context, to: returning, json: ["fav": .string(uri)])
        } catch let error as HatkError {
            if let answer = refusal(error, context, what: "save the favourite", next: returning) { return answer }
            throw error
        }
    }

    // MARK: Comments

    /// The story and whether it takes comments (not when expired or not visible).
    func commentable(_ story: ATURI, _ context: RequestContext) async throws -> (view: StoryView, open: Bool)? {
        let filter = await visibility.filter(for: context)
        guard let view = try await context.reader.story(story), !filter.visible([view]).isEmpty else { return nil }
        let created = UTCTime(iso8601: view.createdAt) ?? context.now
        return (view, !StoryRecord.isExpired(createdAt: created, now: context.now))
    }

    /// The thread as shown: without authors blocked either way (hatk's thread may carry them), muted ones collapsed.
    func commentItems(_ thread: CommentThreadOutput, story: ATURI, context: RequestContext) async -> [CommentItem] {
        let relationships = await visibility.filter(for: context).relationships
        return thread.comments.filter { !relationships.isBlocked($0.author.did) }.map { comment in
            var item = CommentItem(comment, viewer: context.viewer, story: story, now: context.now)
            item.muted = item.muted || relationships.muted.contains(comment.author.did)
            return item
        }
    }

    /// `GET /api/comments/<did>/<rkey>?cursor=`: a page of the thread for the viewer's panel.
    func commentsData(_ context: RequestContext) async throws -> Response {
        guard let story = try storyURI(context), let (_, open) = try await commentable(story, context) else {
            return errors.json("NotFound", "This story does not exist.", status: .notFound)
        }
        let cursor = context.query("cursor").map { String($0.prefix(64)) }
        let thread = try await context.reader.commentThread(on: story, limit: Self.commentsPerPage, cursor: cursor)
        let more = thread.cursor.map { SiteURL.commentsData(did: story.authority, rkey: story.rkey).with([("cursor", $0)]) }
        var response = Response.json(
            CommentsData(
                comments: await commentItems(thread, story: story, context: context), more: more,
                total: thread.totalCount ?? thread.comments.count, open: open))
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    /// `GET /profile/<did>/story/<rkey>/comments`: the thread and a form, without scripts.
    func commentsPage(_ context: RequestContext) async throws -> Response {
        try await commentsPage(context, text: "", error: nil)
    }

    func commentsPage(_ context: RequestContext, text: String, error: String?, status: HTTPStatus = .ok) async throws -> Response {
        guard let story = try storyURI(context), let (view, open) = try await commentable(story, context) else {
            return errors.notFound("This story does not exist, or it was deleted.", context: context)
        }
        let cursor = context.query("cursor").map { String($0.prefix(64)) }
        let thread = try await context.reader.commentThread(on: story, limit: Self.commentsPerPage, cursor: cursor)
        let here = SiteURL.comments(did: story.authority, rkey: story.rkey)
        let decision = await visibility.filter(for: context).decision(view)
        let model = CommentsPageModel(
            storyHref: SiteURL.story(did: story.authority, rkey: story.rkey).path, thumb: StoryItem.thumb(view, decision: decision),
            thumbAlt: "The story", author: view.creator.name, comments: await commentItems(thread, story: story, context: context),
            moreHref: thread.cursor.map { here.with([("cursor", $0)]) },
            totalText: Plural.count(thread.totalCount ?? thread.comments.count, "comment"), open: open,
            signedIn: context.viewer != nil, loginHref: SiteURL.login.with([("next", here.path)]), action: here.path,
            csrf: context.session == nil ? nil : context.csrf.value, text: text, error: error)
        return try pages.render("comments", title: "Comments", model: model, status: status, context: context)
    }

    /// `POST /profile/<did>/story/<rkey>/comments` with `text`: adds a comment (closed on expired stories).
    func postComment(_ context: RequestContext) async throws -> Response {
        guard let story = try storyURI(context) else { throw HTTPError(.notFound, "This story does not exist.") }
        let here = SiteURL.comments(did: story.authority, rkey: story.rkey).path
        guard let session = context.session, let credentials = try await credentials(context, session) else {
            return signInRedirect(context, next: here)
        }
        guard let (_, open) = try await commentable(story, context) else { throw HTTPError(.notFound, "This story does not exist.") }
        guard open else {
            if wantsJSON(context) { return errors.json("Closed", "Comments are closed on expired stories.", status: .forbidden) }
            throw HTTPError(.forbidden, "Comments are closed on expired stories.")
        }
        let text = context.form["text"] ?? ""
        do {
            let reader = context.reader
            let uri = try await actions.comment(
                text, on: story, now: context.now,
                resolve: { handle in (try? await reader.profile(handle))?.did }, as: credentials)
            return done(context, to: here, json: ["uri": .string(uri)])
        } catch let refusal as SocialActions.CommentRefusal {
            if wantsJSON(context) { return errors.json("InvalidComment", refusal.message, status: .badRequest) }
            return try await commentsPage(context, text: String(text.prefix(3000)), error: refusal.message, status: .badRequest)
        } catch let error as HatkError {
            if let answer = refusal(error, context, what: "post the comment", next: here) { return answer }
            throw error
        }
    }

    /// `POST /profile/<did>/story/<rkey>/comments/delete` with `uri`: deletes one of the visitor's comments.
    func deleteComment(_ context: RequestContext) async throws -> Response {
        guard let story = try storyURI(context) else { throw HTTPError(.notFound, "This story does not exist.") }
        let here = SiteURL.comments(did: story.authority, rkey: story.rkey).path
        guard let session = context.session, let credentials = try await credentials(context, session) else {
            return signInRedirect(context, next: here)
        }
        guard let comment = try? ATURI(context.form["uri"] ?? ""), comment.authority == session.did,
            comment.collection == CommentRecord.collection
        else { throw HTTPError(.badRequest, "You can only delete your own comments.") }
        do {
            try await actions.deleteComment(comment, as: credentials)
        } catch let error as HatkError {
            if let answer = refusal(error, context, what: "delete the comment", next: here) { return answer }
            throw error
        }
        return done(context, to: here)
    }
}

extension SocialController {
    /// The routes this controller answers, one line per method and page.
    var routes: [Route] {
        [
            Route(method: .post, page: .favorite(did: .key, rkey: .key), access: .signedIn, bodyLimit: 4096, write: .favourite, handler: favorite),
            Route(method: .get, page: .comments(did: .key, rkey: .key), access: .viewers, handler: commentsPage),
            Route(method: .post, page: .comments(did: .key, rkey: .key), access: .signedIn, bodyLimit: 16384, write: .comment, handler: postComment),
            Route(
                method: .post, page: .deleteComment(did: .key, rkey: .key), access: .signedIn, bodyLimit: 4096, handler: deleteComment),
            Route(method: .get, page: .commentsData(did: .key, rkey: .key), access: .viewers, group: .api, handler: commentsData),
            Route(method: .get, page: .report, access: .signedIn, handler: reportForm),
            Route(method: .post, page: .report, access: .signedIn, bodyLimit: 16384, write: .report, handler: report),
            Route(method: .post, page: .mute(actor: .key), access: .signedIn, bodyLimit: 4096, write: .mute, handler: mute),
            Route(method: .post, page: .block(actor: .key), access: .signedIn, bodyLimit: 4096, write: .block, handler: block),
            Route(method: .get, page: .muted, access: .signedIn, handler: mutedPage),
            Route(method: .get, page: .activity, access: .signedIn, handler: activityPage),
            Route(method: .post, page: .activitySeen, access: .signedIn, bodyLimit: 4096, handler: markActivitySeen),
        ]
    }
}
