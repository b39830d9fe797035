public import ATProto
import Foundation
import HTTPServer
public import Lexicon

/// The embedded backend's read queries, for callers in the same process: each returns the lexicon output hatk's
/// method of the same name answers with, for `viewer` (nil for an anonymous request), with image URLs under
/// `imageBase` (`""` for relative `/img/…` URLs, or the origin the browser reaches us at).
///
/// The XRPC routes (`GET /xrpc/<nsid>`) are these functions plus parsing and encoding. Failures are ``BackendError``
/// (what hatk would answer with) or the database's own errors.
public struct BackendQueries: Sendable {
    let store: BackendStore
    let clock: @Sendable () -> UTCTime

    public init(store: BackendStore, clock: @escaping @Sendable () -> UTCTime) {
        self.store = store
        self.clock = clock
    }

    /// The longest cursor accepted: a createdAt, with room to spare.
    static let maxCursorLength = 64

    static func checked(_ cursor: String?) throws -> String? {
        guard let cursor else { return nil }
        guard cursor.utf8.count <= maxCursorLength else { throw BackendError.invalidRequest("Invalid cursor") }
        return cursor
    }

    /// `social.grain.unspecced.getStoryAuthors`: authors with live stories, newest first, the viewer included.
    /// For a viewer: without authors they muted or that are blocked either way, with `unviewedCount` and
    /// `lastViewedAt`. Counts stories an author self-labelled with a hide-severity label, as hatk does at a312914,
    /// although no query serves them: skip an author whose `stories(of:)` comes back empty.
    public func storyAuthors(viewer: DID?, imageBase: String) throws -> StoryAuthorsOutput {
        let views = ViewBuilder(imageBase: imageBase)
        let authors = try store.stories.storyAuthors(now: clock(), viewer: viewer).map { row in
            StoryAuthor(
                profile: views.profileView(did: row.did, handle: row.handle, profile: row.profile),
                storyCount: row.storyCount, latestAt: row.latestAt, unviewedCount: row.unviewedCount, lastViewedAt: row.lastViewedAt)
        }
        return StoryAuthorsOutput(authors: authors)
    }

    /// `getStories`: one author's live stories, oldest first, without hidden ones. Not mute or block filtered (as in
    /// hatk): filter with ``relationships(of:)``.
    public func stories(of actor: DID, viewer: DID?, imageBase: String) throws -> StoriesOutput {
        guard let account = try store.accounts.account(actor.rawValue), account.did == actor else { return StoriesOutput(stories: []) }
        let views = ViewBuilder(imageBase: imageBase)
        let now = clock()
        let creator = try creatorView(account, views)
        let stories = try store.stories.activeStories(of: actor.rawValue, now: now, viewer: viewer).compactMap {
            views.storyView($0, creator: creator, now: now, full: true)
        }
        return StoriesOutput(stories: stories)
    }

    /// `getStory`: one story, expired or not; `story` is nil when it does not exist or is hidden. Like hatk's, the view
    /// has no `expired`, `commentCount`, `locationDisplay` or `viewer.fav` (only `viewer.viewed`).
    public func story(_ uri: ATURI, viewer: DID?, imageBase: String) throws -> StoryOutput {
        guard uri.collection == StoryRecord.collection, let row = try store.stories.storyRow(uri, viewer: viewer), !row.record.isHidden,
            let account = try store.accounts.account(row.record.did)
        else { return StoryOutput(story: nil) }
        let views = ViewBuilder(imageBase: imageBase)
        return StoryOutput(story: views.storyView(row, creator: try creatorView(account, views), now: clock(), full: false))
    }

    /// `getStoryArchive`: every visible story of an actor, newest first; `limit` is clamped to 1…100, `cursor` is the
    /// previous page's.
    public func storyArchive(
        of actor: DID, limit: Int = 50, cursor: String? = nil, viewer: DID?, imageBase: String
    ) throws
        -> StoriesOutput
    {
        let limit = min(max(limit, 1), 100)
        let cursor = try Self.checked(cursor)
        guard let account = try store.accounts.account(actor.rawValue), account.did == actor else { return StoriesOutput(stories: []) }
        let views = ViewBuilder(imageBase: imageBase)
        let now = clock()
        let creator = try creatorView(account, views)
        let rows = try store.stories.storyArchive(of: actor.rawValue, limit: limit, before: cursor, viewer: viewer)
        let stories = rows.compactMap { views.storyView($0, creator: creator, now: now, full: true) }
        return StoriesOutput(stories: stories, cursor: rows.count == limit ? rows.last?.record.createdAt : nil)
    }

    /// `getActorProfile` by DID or handle, with `viewer` (blocking, blockedBy, muted) for a signed-in viewer other
    /// than the actor. Unlike hatk, a `viewer` parameter is not taken from the query string (it would tell anyone
    /// whom someone muted). - Throws: ``BackendError`` "Actor not found" (400) for an unknown actor.
    public func actorProfile(_ actor: String, viewer: DID?, imageBase: String) throws -> ProfileViewDetailed {
        guard let account = try store.accounts.account(actor) else { throw BackendError.invalidRequest("Actor not found") }
        let views = ViewBuilder(imageBase: imageBase)
        let did = account.did.rawValue
        let profile = try store.stories.profile(of: did)
        var view = ProfileViewDetailed(cid: profile?.cid ?? "", did: did, handle: account.handle)
        view.displayName = profile?.record.displayName
        view.description = profile?.record.description
        view.avatar = profile?.record.avatar.map { views.imageURL(.avatar, did: did, cid: $0.cid) }
        view.createdAt = profile?.record.createdAt ?? account.createdAt
        view.indexedAt = account.createdAt
        view.followersCount = 0
        view.followsCount = 0
        view.galleryCount = 0
        if let viewer, viewer != account.did {
            let state = try store.social.relationship(of: viewer, to: did)
            view.viewer = state.isEmpty ? nil : state
        }
        return view
    }

    /// `dev.hatk.getRecord`: one record in hatk's envelope. - Throws: ``BackendError`` "Record not found" (404) when
    /// it is missing or hidden.
    public func record(_ uri: ATURI) throws -> RecordOutput {
        guard let stored = try store.records.record(uri), !stored.isHidden else {
            throw BackendError(.notFound, status: .notFound, error: "Record not found")
        }
        var envelope = RecordEnvelope(
            uri: stored.uri.description, cid: stored.cid, did: stored.did, handle: stored.handle,
            indexedAt: stored.indexedAt, value: stored.value)
        envelope.labels = stored.selfLabels
        return RecordOutput(record: envelope)
    }

    /// `dev.hatk.describeLabels`: Grain's label definitions.
    public func describeLabels() -> DescribeLabelsOutput {
        DescribeLabelsOutput(definitions: LabelDefinition.grain)
    }

    /// Whom the viewer muted, blocks, or is blocked by: the front drops their stories wherever hatk does not
    /// (everything but the strip).
    public func relationships(of viewer: DID) throws -> SocialStore.Relationships {
        try store.social.relationships(of: viewer)
    }

    func creatorView(_ account: Account, _ views: ViewBuilder) throws -> ProfileView {
        views.profileView(did: account.did.rawValue, handle: account.handle, profile: try store.stories.profile(of: account.did.rawValue))
    }
}
