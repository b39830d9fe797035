import ATProto
import Foundation
import Lexicon
import Storage

/// The story queries, with the 24-hour window computed at query time from createdAt.
extension BackendStore {
    public static let storyLifetime: Double = 24 * 60 * 60

    /// A story author of the strip: their DID and handle, profile record, count and newest createdAt.
    public struct AuthorRow: Sendable {
        public var did: String
        public var handle: String
        public var profile: StoredProfile?
        public var storyCount: Int
        public var latestAt: String
    }

    /// A profile record with its CID.
    public struct StoredProfile: Sendable {
        public var cid: String
        public var record: ProfileRecord
    }

    /// Authors with visible stories newer than `now - 24h`, newest first.
    public func storyAuthors(now: UTCTime) throws -> [AuthorRow] {
        let cutoff = now.adding(seconds: -Self.storyLifetime).iso8601
        let rows = try database.read {
            try $0.query(
                """
                SELECT s.did, a.handle, COUNT(*) AS n, MAX(s.created_at) AS latest, p.cid AS pcid, p.value AS pvalue
                FROM records s
                JOIN accounts a ON a.did = s.did
                LEFT JOIN records p ON p.did = s.did AND p.collection = 'social.grain.actor.profile' AND p.rkey = 'self'
                WHERE s.collection = 'social.grain.story' AND s.created_at > ? AND s.hidden = 0
                GROUP BY s.did
                ORDER BY latest DESC
                """, [cutoff])
        }
        return rows.map { row in
            AuthorRow(
                did: row.string("did") ?? "", handle: row.string("handle") ?? "",
                profile: Self.profile(cid: row.string("pcid"), json: row.string("pvalue")),
                storyCount: row.int("n") ?? 0, latestAt: row.string("latest") ?? "")
        }
    }

    /// An author's visible stories newer than `now - 24h`, oldest first.
    public func activeStories(of did: String, now: UTCTime) throws -> [StoredRecord] {
        let cutoff = now.adding(seconds: -Self.storyLifetime).iso8601
        return try database.read {
            try $0.query(
                Self.recordSelect
                    + " WHERE r.did = ? AND r.collection = 'social.grain.story' AND r.created_at > ? AND r.hidden = 0"
                    + " ORDER BY r.created_at ASC, r.rkey ASC",
                [did, cutoff])
        }.map(Self.storedRecord)
    }

    /// Every story of an author, expired ones included, newest first, paged by createdAt.
    public func storyArchive(of did: String, limit: Int, before cursor: String?) throws -> [StoredRecord] {
        try database.read {
            try $0.query(
                Self.recordSelect
                    + " WHERE r.did = ? AND r.collection = 'social.grain.story' AND r.created_at < ?"
                    + " ORDER BY r.created_at DESC, r.rkey DESC LIMIT ?",
                [did, cursor ?? "9999", limit])
        }.map(Self.storedRecord)
    }

    /// The profile record of an account, if it wrote one.
    public func profile(of did: String) throws -> StoredProfile? {
        let row = try database.read {
            try $0.queryOne(
                "SELECT cid, value FROM records WHERE did = ? AND collection = 'social.grain.actor.profile' AND rkey = 'self'",
                [did])
        }
        return Self.profile(cid: row?.string("cid"), json: row?.string("value"))
    }

    static func profile(cid: String?, json: String?) -> StoredProfile? {
        guard let cid, let json, let record = try? JSONDecoder().decode(ProfileRecord.self, from: Data(json.utf8))
        else { return nil }
        return StoredProfile(cid: cid, record: record)
    }
}
