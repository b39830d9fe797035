public import ATProto
import Crypto
import Foundation
import Storage

/// Share links: whoever has `/s/<token>` sees that one story until its 24 hours end or its author revokes the link.
/// Only the token's hash is stored, so the link is shown once, to its author.
public final class ShareStore: Sendable {
    let database: Database

    init(database: Database) { self.database = database }

    /// One share link as its author's list shows it; `id` names it in forms and is not the link's secret.
    public struct Share: Sendable, Equatable {
        public var id: String
        public var story: ATURI
        public var author: DID
        public var createdAt: String
        public var expiresAt: String
    }

    /// A new link to `story` (its author's), working until `expiresAt`: returns the token, shown once.
    public func createShare(of story: ATURI, by author: DID, expiresAt: UTCTime, now: UTCTime) throws -> String {
        let token = SecureRandom.token(byteCount: 24)
        try database.write {
            try $0.execute(
                "INSERT INTO shares (id, token_hash, story_uri, author, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    SecureRandom.token(byteCount: 9), StoreSQL.tokenHash(token), story.description, author.rawValue, now.iso8601,
                    expiresAt.iso8601,
                ])
        }
        return token
    }

    /// The live share a token opens: not revoked, not expired, its author still able to act. Nil says nothing of
    /// whether the token ever existed.
    public func share(token: String, now: UTCTime) throws -> Share? {
        try database.read {
            try $0.queryOne(Self.shareColumns + " WHERE s.token_hash = ? AND " + Self.live, [StoreSQL.tokenHash(token), now.iso8601])
        }.flatMap(Self.share)
    }

    /// The live links to one story, newest first, for its author.
    public func shares(of story: ATURI, now: UTCTime) throws -> [Share] {
        try database.read {
            try $0.query(
                Self.shareColumns + " WHERE s.story_uri = ? AND " + Self.live + " ORDER BY s.created_at DESC LIMIT 50",
                [story.description, now.iso8601])
        }.compactMap(Self.share)
    }

    /// Revokes one of `author`'s links; false when they have no such live link.
    @discardableResult
    public func revokeShare(id: String, by author: DID, now: UTCTime) throws -> Bool {
        try database.write { connection in
            try connection.execute(
                "UPDATE shares SET revoked_at = ? WHERE id = ? AND author = ? AND revoked_at IS NULL", [now.iso8601, id, author.rawValue])
            return connection.changes == 1
        }
    }

    /// Forgets links that expired or were revoked more than a day ago.
    public func pruneShares(now: UTCTime) throws {
        let cutoff = now.adding(seconds: -86400).iso8601
        try database.write {
            try $0.execute("DELETE FROM shares WHERE expires_at <= ? OR revoked_at <= ?", [cutoff, cutoff])
        }
    }

    static let shareColumns = """
        SELECT s.id, s.story_uri, s.author, s.created_at, s.expires_at
        FROM shares s JOIN accounts a ON a.did = s.author
        """
    static let live = "s.revoked_at IS NULL AND s.expires_at > ? AND a.disabled_at IS NULL"

    static func share(_ row: Row) -> Share? {
        guard let story = row.string("story_uri").flatMap({ try? ATURI($0) }),
            let author = row.string("author").flatMap(DID.parse)
        else { return nil }
        return Share(
            id: row.string("id") ?? "", story: story, author: author, createdAt: row.string("created_at") ?? "",
            expiresAt: row.string("expires_at") ?? "")
    }
}
