import ATProto
import HTTPServer
import Lexicon

/// `social.grain.unspecced.*` story and profile queries, shaped and ordered as Grain's server does.
extension EmbeddedBackend {
    func getStoryAuthors(_ request: Request) throws -> Response {
        let views = self.views
        let authors = try store.storyAuthors(now: clock()).map { row in
            StoryAuthor(
                profile: views.profileView(did: row.did, handle: row.handle, profile: row.profile),
                storyCount: row.storyCount, latestAt: row.latestAt)
        }
        return XRPC.json(StoryAuthorsOutput(authors: authors))
    }

    func getStories(_ request: Request) throws -> Response {
        // Like hatk: the actor must be a DID; anything else simply matches nothing.
        guard let actor = request.query("actor"), let account = try store.account(actor), account.did.rawValue == actor
        else { return XRPC.json(StoriesOutput(stories: [])) }
        let now = clock()
        let creator = try creatorView(account)
        let stories = try store.activeStories(of: actor, now: now).compactMap {
            views.storyView($0, creator: creator, now: now, full: true)
        }
        return XRPC.json(StoriesOutput(stories: stories))
    }

    func getStory(_ request: Request) throws -> Response {
        guard let raw = request.query("story") else { return XRPC.error(.badRequest, "Missing required parameter: story") }
        guard let uri = try? ATURI(raw), uri.collection == StoryRecord.collection else {
            return XRPC.error(.badRequest, "Invalid story URI: \(raw)")
        }
        guard let stored = try store.record(uri), let account = try store.account(stored.did) else {
            return XRPC.json(StoryOutput(story: nil))
        }
        let view = views.storyView(stored, creator: try creatorView(account), now: clock(), full: false)
        return XRPC.json(StoryOutput(story: view))
    }

    func getStoryArchive(_ request: Request) throws -> Response {
        guard let actor = request.query("actor") else { return XRPC.error(.badRequest, "Missing required parameter: actor") }
        var limit = 50
        if let raw = request.query("limit") {
            guard let parsed = Int(raw) else { return XRPC.error(.badRequest, "limit must be an integer") }
            limit = min(max(parsed, 1), 100)
        }
        guard let account = try store.account(actor), account.did.rawValue == actor else {
            return XRPC.json(StoriesOutput(stories: []))
        }
        let now = clock()
        let creator = try creatorView(account)
        let rows = try store.storyArchive(of: actor, limit: limit, before: request.query("cursor"))
        let stories = rows.compactMap { views.storyView($0, creator: creator, now: now, full: true) }
        let cursor = rows.count == limit ? rows.last?.createdAt : nil
        return XRPC.json(StoriesOutput(stories: stories, cursor: cursor))
    }

    func getActorProfile(_ request: Request) throws -> Response {
        guard let actor = request.query("actor") else { return XRPC.error(.badRequest, "Missing required parameter: actor") }
        guard let account = try store.account(actor) else { return XRPC.error(.badRequest, "Actor not found") }
        let profile = try store.profile(of: account.did.rawValue)
        var view = ProfileViewDetailed(cid: profile?.cid ?? "", did: account.did.rawValue, handle: account.handle)
        view.displayName = profile?.record.displayName
        view.description = profile?.record.description
        view.avatar = profile?.record.avatar.map { views.imageURL(.avatar, did: account.did.rawValue, cid: $0.cid) }
        view.createdAt = profile?.record.createdAt ?? account.createdAt
        view.indexedAt = account.createdAt
        view.followersCount = 0
        view.followsCount = 0
        view.galleryCount = 0
        return XRPC.json(view)
    }

    func creatorView(_ account: Account) throws -> ProfileView {
        views.profileView(
            did: account.did.rawValue, handle: account.handle, profile: try store.profile(of: account.did.rawValue))
    }
}
