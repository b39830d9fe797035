public import ATProto
import Foundation
public import Lexicon
import Storage

/// Favourites, comments and notifications: records of other people's repos that point at a story; and who blocks
/// or mutes whom, which decides what of it a viewer sees.
public final class SocialStore: Sendable {
    let database: Database

    init(database: Database) { self.database = database }

    /// A comment with its author and what the viewer's view of it needs.
    public struct CommentRow: Sendable {
        public var record: StoredRecord
        public var authorProfile: StoryStore.StoredProfile?
        public var favCount: Int
        public var viewerFavorite: String?
        /// The viewer muted the author.
        public var muted: Bool
    }

    /// A favourite or a comment on one of the viewer's stories.
    public struct NotificationRow: Sendable {
        public var record: StoredRecord
        public var collection: String
        public var authorProfile: StoryStore.StoredProfile?
        public var story: String
        /// The story's media CID, for its thumbnail.
        public var storyMedia: String?
    }

    /// The viewer's favourite of `subject`, if they made one (the first, should there be several).
    public func favorite(by viewer: DID, of subject: String) throws -> (uri: String, cid: String)? {
        try database.read {
            try $0.queryOne(
                """
                SELECT uri, cid FROM records WHERE collection = 'social.grain.favorite' AND subject = ? AND did = ?
                ORDER BY created_at LIMIT 1
                """, [subject, viewer.rawValue])
        }.flatMap { row in row.string("uri").map { ($0, row.string("cid") ?? "") } }
    }

    /// Comments on `subject`, oldest first, after `cursor` (a createdAt), at most `limit` plus one to tell whether
    /// more follow. Authors blocked either way are left out; muted ones are flagged. Replies to deleted comments and
    /// comments the household owner hid are left out. Also the total under the same rules, without the cursor.
    public func comments(on subject: String, viewer: DID?, limit: Int, after cursor: String?) throws -> (rows: [CommentRow], total: Int) {
        let conditions = """
            c.collection = 'social.grain.comment' AND c.subject = ?2 AND \(StoryStore.notOrphaned("c"))
                AND \(StoreSQL.notHiddenByOwner("c")) AND \(StoreSQL.notBlocked("c.did"))
            """
        let viewerDID = viewer?.rawValue ?? ""
        return try database.read { connection in
            let rows = try connection.query(
                """
                SELECT c.uri, c.cid, c.did, a.handle, c.value, c.created_at, c.indexed_at, c.hidden, 0 AS taken_down,
                    p.cid AS pcid, p.value AS pvalue,
                    (SELECT COUNT(DISTINCT f.did) FROM records f WHERE f.collection = 'social.grain.favorite' AND f.subject = c.uri) AS favs,
                    (SELECT f.uri FROM records f WHERE f.collection = 'social.grain.favorite' AND f.subject = c.uri AND f.did = ?1
                        ORDER BY f.created_at LIMIT 1) AS fav,
                    EXISTS (SELECT 1 FROM mutes m WHERE m.did = ?1 AND m.subject = c.did) AS muted
                FROM records c JOIN accounts a ON a.did = c.did
                LEFT JOIN records p ON p.did = c.did AND p.collection = 'social.grain.actor.profile' AND p.rkey = 'self'
                WHERE \(conditions) AND c.created_at > ?3
                ORDER BY c.created_at ASC, c.rkey ASC LIMIT ?4
                """, [viewerDID, subject, cursor ?? "", limit + 1])
            let total =
                try connection.queryOne(
                    "SELECT COUNT(*) AS n FROM records c WHERE \(conditions)", [viewerDID, subject])?.int("n") ?? 0
            return (
                try rows.map { row in
                    CommentRow(
                        record: try StoreSQL.storedRecord(row), authorProfile: StoreSQL.profile(cid: row.string("pcid"), json: row.string("pvalue")),
                        favCount: row.int("favs") ?? 0, viewerFavorite: row.string("fav"), muted: row.int("muted") == 1)
                }, total
            )
        }
    }

    /// Favourites and top-level comments others made on the viewer's stories, newest first, before `cursor`, at most
    /// `limit` plus one; from muted authors and authors blocked either way nothing shows.
    public func notifications(for viewer: DID, limit: Int, before cursor: String?) throws -> [NotificationRow] {
        try database.read {
            try $0.query(
                """
                SELECT n.uri, n.cid, n.did, a.handle, n.value, n.created_at, n.indexed_at, n.hidden, 0 AS taken_down,
                    n.collection, s.uri AS story, json_extract(s.value, '$.media.ref."$link"') AS media,
                    p.cid AS pcid, p.value AS pvalue
                \(Self.notificationSource)
                    AND n.created_at < ?2
                ORDER BY n.created_at DESC, n.uri DESC LIMIT ?3
                """, [viewer.rawValue, cursor ?? "9999", limit + 1])
        }.map { row in
            NotificationRow(
                record: try StoreSQL.storedRecord(row), collection: row.string("collection") ?? "",
                authorProfile: StoreSQL.profile(cid: row.string("pcid"), json: row.string("pvalue")), story: row.string("story") ?? "",
                storyMedia: row.string("media"))
        }
    }

    /// How many notifications are newer than `seen` (all of them when nil).
    public func notificationCount(for viewer: DID, after seen: String?) throws -> Int {
        try database.read {
            try $0.queryOne(
                "SELECT COUNT(*) AS n \(Self.notificationSource) AND n.created_at > ?2", [viewer.rawValue, seen ?? ""])?.int("n") ?? 0
        }
    }

    /// Grain's story-favorite and story-comment sources (`?1` is the viewer): another account's favourite or top-level
    /// comment on a story of the viewer's that is still there and not hidden by the owner. CROSS JOIN keeps SQLite
    /// starting from the viewer's stories rather than from every favourite and comment in the household.
    static let notificationSource = """
        FROM records s
        CROSS JOIN records n ON n.subject = s.uri AND n.collection IN ('social.grain.favorite', 'social.grain.comment')
        JOIN accounts a ON a.did = n.did
        LEFT JOIN records p ON p.did = n.did AND p.collection = 'social.grain.actor.profile' AND p.rkey = 'self'
        WHERE s.did = ?1 AND s.collection = 'social.grain.story' AND n.did != ?1
            AND (n.collection = 'social.grain.favorite' OR json_extract(n.value, '$.replyTo') IS NULL)
            AND \(StoreSQL.notHiddenByOwner("s")) AND \(StoreSQL.notHiddenByOwner("n")) AND \(StoreSQL.notMutedOrBlocked("n.did"))
        """

    // MARK: Blocks and mutes

    /// What the viewer hides from their own feeds: whom they muted, whom they block (with the block record, for
    /// undo) and who blocks them.
    public struct Relationships: Sendable, Equatable {
        public var muted: Set<String> = []
        public var blocking: [String: String] = [:]
        public var blockedBy: Set<String> = []

        /// Every DID whose stories the viewer should not see.
        public var hiddenAuthors: Set<String> { muted.union(blocking.keys).union(blockedBy) }
    }

    public func relationships(of viewer: DID) throws -> Relationships {
        try database.read { connection in
            var relationships = Relationships()
            for row in try connection.query("SELECT subject FROM mutes WHERE did = ?", [viewer.rawValue]) {
                if let did = row.string("subject") { relationships.muted.insert(did) }
            }
            for row in try connection.query(
                "SELECT subject, uri FROM records WHERE did = ? AND collection = 'social.grain.graph.block' ORDER BY created_at",
                [viewer.rawValue])
            {
                if let did = row.string("subject"), relationships.blocking[did] == nil { relationships.blocking[did] = row.string("uri") }
            }
            for row in try connection.query(
                "SELECT did FROM records WHERE collection = 'social.grain.graph.block' AND subject = ?", [viewer.rawValue])
            {
                if let did = row.string("did") { relationships.blockedBy.insert(did) }
            }
            return relationships
        }
    }

    /// How `viewer` relates to `actor`: the viewer's block of them, their block of the viewer, a mute.
    public func relationship(of viewer: DID, to actor: String) throws -> ProfileViewerState {
        try database.read { connection in
            let blocking = try connection.queryOne(
                """
                SELECT uri FROM records WHERE did = ? AND collection = 'social.grain.graph.block' AND subject = ?
                ORDER BY created_at LIMIT 1
                """, [viewer.rawValue, actor])?.string("uri")
            let blockedBy =
                try connection.queryOne(
                    "SELECT 1 AS x FROM records WHERE did = ? AND collection = 'social.grain.graph.block' AND subject = ?",
                    [actor, viewer.rawValue]) != nil
            let muted = try connection.queryOne("SELECT 1 AS x FROM mutes WHERE did = ? AND subject = ?", [viewer.rawValue, actor]) != nil
            return ProfileViewerState(blocking: blocking, blockedBy: blockedBy ? true : nil, muted: muted ? true : nil)
        }
    }

    /// The viewer's block of `subject`, if any (a second block of the same account is not written twice).
    public func block(by viewer: DID, of subject: String) throws -> (uri: String, cid: String)? {
        try database.read {
            try $0.queryOne(
                """
                SELECT uri, cid FROM records WHERE did = ? AND collection = 'social.grain.graph.block' AND subject = ?
                ORDER BY created_at LIMIT 1
                """, [viewer.rawValue, subject])
        }.flatMap { row in row.string("uri").map { ($0, row.string("cid") ?? "") } }
    }

    /// Whether either account blocks the other: a block in either direction keeps them out of each other's stories,
    /// threads and favourites.
    public func isBlocked(between one: String, and other: String) throws -> Bool {
        try database.read {
            try $0.queryOne(
                """
                SELECT 1 AS x FROM records WHERE collection = 'social.grain.graph.block'
                    AND ((did = ?1 AND subject = ?2) OR (did = ?2 AND subject = ?1))
                LIMIT 1
                """, [one, other])
        } != nil
    }
}
