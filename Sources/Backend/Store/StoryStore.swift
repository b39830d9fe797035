public import ATProto
import Foundation
public import Lexicon
import Storage

/// The story queries, with the 24-hour window computed at query time from createdAt, and the authors' profiles and
/// descriptions that ride along.
public final class StoryStore: Sendable {
    let database: Database
    /// Resolves a story URI named by handle.
    let accounts: AccountStore

    init(database: Database, accounts: AccountStore) {
        self.database = database
        self.accounts = accounts
    }

    /// A story author of the strip: their DID and handle, profile record, count and newest createdAt.
    public struct AuthorRow: Sendable {
        public var did: String
        public var handle: String
        public var profile: StoredProfile?
        public var storyCount: Int
        public var latestAt: String
        /// For a viewer: live stories they have not watched, and the newest one they have.
        public var unviewedCount: Int?
        public var lastViewedAt: String?
    }

    /// A profile record with its CID.
    public struct StoredProfile: Sendable {
        public var cid: String
        public var record: ProfileRecord
    }

    /// A story with what its view says about comments and about the viewer.
    public struct StoryRow: Sendable {
        public var record: StoredRecord
        public var commentCount: Int
        /// The viewer's favourite of it, if any.
        public var favorite: String?
        public var viewed: Bool
        /// The author's description of the photo, and whether it is shown as a caption too.
        public var description: String?
        public var caption: Bool
        /// The clip's length in milliseconds when the story's media is a video the server stored.
        public var clipMilliseconds: Int? = nil
    }

    /// Authors with stories newer than `now - 24h`, newest first. Like hatk at a312914, stories an author self-labelled
    /// with a hide-severity label still count (no query serves them); stories the household owner hid do not. For a
    /// viewer, authors they muted or that are blocked either way are left out, and the viewed state rides along.
    public func storyAuthors(now: UTCTime, viewer: DID? = nil) throws -> [AuthorRow] {
        let cutoff = now.adding(seconds: -Double(StoryRecord.lifetime.components.seconds)).iso8601
        let rows = try database.read {
            try $0.query(
                """
                SELECT s.did, a.handle, COUNT(*) AS n, MAX(s.created_at) AS latest, p.cid AS pcid, p.value AS pvalue,
                    MAX(CASE WHEN v.subject IS NOT NULL THEN s.created_at END) AS last_viewed,
                    SUM(CASE WHEN v.subject IS NULL THEN 1 ELSE 0 END) AS unviewed
                FROM records s
                JOIN accounts a ON a.did = s.did
                LEFT JOIN records p ON p.did = s.did AND p.collection = 'social.grain.actor.profile' AND p.rkey = 'self'
                LEFT JOIN story_views v ON v.did = ?1 AND v.subject = s.uri
                WHERE s.collection = 'social.grain.story' AND s.created_at > ?2 AND \(StoreSQL.notHiddenByOwner("s"))
                    AND \(StoreSQL.notMutedOrBlocked("s.did"))
                GROUP BY s.did
                ORDER BY latest DESC
                """, [viewer?.rawValue ?? "", cutoff])
        }
        return rows.map { row in
            AuthorRow(
                did: row.string("did") ?? "", handle: row.string("handle") ?? "",
                profile: StoreSQL.profile(cid: row.string("pcid"), json: row.string("pvalue")),
                storyCount: row.int("n") ?? 0, latestAt: row.string("latest") ?? "",
                unviewedCount: viewer == nil ? nil : row.int("unviewed") ?? row.int("n"),
                lastViewedAt: viewer == nil ? nil : row.string("last_viewed"))
        }
    }

    /// The columns a story view needs beyond the record: comments (replies to deleted comments do not count, as in
    /// Grain), and the viewer's favourite and seen mark (`?1` is the viewer, or `''`).
    static let storyExtras = """
        , (SELECT COUNT(*) FROM records c WHERE c.collection = 'social.grain.comment' AND c.subject = r.uri
            AND \(notOrphaned("c"))) AS comments,
        (SELECT f.uri FROM records f WHERE f.collection = 'social.grain.favorite' AND f.subject = r.uri AND f.did = ?1
            ORDER BY f.created_at LIMIT 1) AS fav,
        EXISTS (SELECT 1 FROM story_views v WHERE v.did = ?1 AND v.subject = r.uri) AS viewed,
        (SELECT d.text FROM story_descriptions d WHERE d.uri = r.uri) AS description,
        (SELECT d.caption FROM story_descriptions d WHERE d.uri = r.uri) AS caption,
        (SELECT k.duration_ms FROM clips k WHERE k.cid = json_extract(r.value, '$.media.ref."$link"')) AS clip_ms
        """

    /// A comment that replies to a deleted comment is left out, as Grain's `NOT_ORPHANED` does.
    static func notOrphaned(_ alias: String) -> String {
        """
        (json_extract(\(alias).value, '$.replyTo') IS NULL
            OR EXISTS (SELECT 1 FROM records q WHERE q.uri = json_extract(\(alias).value, '$.replyTo')))
        """
    }

    static func storyRow(_ row: Row) throws -> StoryRow {
        StoryRow(
            record: try StoreSQL.storedRecord(row), commentCount: row.int("comments") ?? 0, favorite: row.string("fav"),
            viewed: row.int("viewed") == 1, description: row.string("description"), caption: row.int("caption") == 1,
            clipMilliseconds: row.int("clip_ms"))
    }

    /// The select of a story list, with the extras, leaving out hidden stories.
    static func storySelect(where condition: String) -> String {
        StoreSQL.recordColumns + storyExtras + StoreSQL.recordFrom
            + " WHERE r.collection = 'social.grain.story' AND r.hidden = 0 AND \(StoreSQL.notHiddenByOwner("r")) AND "
            + condition
    }

    /// An author's visible stories newer than `now - 24h`, oldest first.
    public func activeStories(of did: String, now: UTCTime, viewer: DID? = nil) throws -> [StoryRow] {
        let cutoff = now.adding(seconds: -Double(StoryRecord.lifetime.components.seconds)).iso8601
        return try database.read {
            try $0.query(
                Self.storySelect(where: "r.did = ?2 AND r.created_at > ?3") + " ORDER BY r.created_at ASC, r.rkey ASC",
                [viewer?.rawValue ?? "", did, cutoff])
        }.map(Self.storyRow)
    }

    /// Every visible story of an author, expired ones included, newest first, paged by createdAt.
    public func storyArchive(of did: String, limit: Int, before cursor: String?, viewer: DID? = nil) throws -> [StoryRow] {
        try database.read {
            try $0.query(
                Self.storySelect(where: "r.did = ?2 AND r.created_at < ?3") + " ORDER BY r.created_at DESC, r.rkey DESC LIMIT ?4",
                [viewer?.rawValue ?? "", did, cursor ?? "9999", limit])
        }.map(Self.storyRow)
    }

    /// One story with its extras, hidden or not (the caller decides what to serve).
    public func storyRow(_ uri: ATURI, viewer: DID? = nil) throws -> StoryRow? {
        guard let canonical = try accounts.canonical(uri) else { return nil }
        return try database.read {
            try $0.queryOne(
                StoreSQL.recordColumns + Self.storyExtras + StoreSQL.recordFrom + " WHERE r.uri = ?2",
                [viewer?.rawValue ?? "", canonical.description])
        }.map(Self.storyRow)
    }

    /// The profile record of an account, if it wrote one.
    public func profile(of did: String) throws -> StoredProfile? {
        let row = try database.read {
            try $0.queryOne(
                "SELECT cid, value FROM records WHERE did = ? AND collection = 'social.grain.actor.profile' AND rkey = 'self'",
                [did])
        }
        return StoreSQL.profile(cid: row?.string("cid"), json: row?.string("value"))
    }
}
