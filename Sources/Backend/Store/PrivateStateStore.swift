public import ATProto
import Foundation
import Lexicon
import Storage

/// State private to one account that lives in the appview, not in any repo: mutes, seen marks, preferences.
public final class PrivateStateStore: Sendable {
    let database: Database

    init(database: Database) { self.database = database }

    /// Seen marks are kept while their story is at most this old; the archive shows older ones unmarked.
    public static let viewRetention: Double = 7 * 86400
    /// Bounds on `dev.hatk.putPreference`, so one account cannot fill the disk.
    public static let maxPreferenceKeyBytes = 100
    public static let maxPreferenceValueBytes = 16 * 1024
    public static let maxPreferencesPerAccount = 64

    // MARK: Mutes

    /// Mutes one account keeps at most; far beyond any household, small enough to bound the table.
    public static let maxMutesPerAccount = 1000

    public func mute(_ subject: String, by viewer: DID, now: UTCTime) throws {
        try database.write {
            let count = try $0.queryOne("SELECT COUNT(*) AS n FROM mutes WHERE did = ?", [viewer.rawValue])?.int("n") ?? 0
            guard count < Self.maxMutesPerAccount else {
                throw PreferenceError(description: "An account may mute at most \(Self.maxMutesPerAccount) accounts")
            }
            try $0.execute(
                "INSERT INTO mutes (did, subject, created_at) VALUES (?, ?, ?) ON CONFLICT (did, subject) DO NOTHING",
                [viewer.rawValue, subject, now.iso8601])
        }
    }

    public func unmute(_ subject: String, by viewer: DID) throws {
        try database.write { try $0.execute("DELETE FROM mutes WHERE did = ? AND subject = ?", [viewer.rawValue, subject]) }
    }

    /// One page of an account list (mutes or blocks), newest first.
    public struct GraphRow: Sendable {
        public var did: String
        public var handle: String?
        public var profile: StoryStore.StoredProfile?
        public var createdAt: String
        public var blockURI: String?
    }

    /// Whom the viewer muted, newest first, before `cursor` (a createdAt), at most `limit` plus one.
    public func mutes(of viewer: DID, limit: Int, before cursor: String?) throws -> [GraphRow] {
        try database.read {
            try $0.query(
                """
                SELECT m.subject AS did, a.handle, m.created_at, p.cid AS pcid, p.value AS pvalue, NULL AS uri
                FROM mutes m LEFT JOIN accounts a ON a.did = m.subject
                LEFT JOIN records p ON p.did = m.subject AND p.collection = 'social.grain.actor.profile' AND p.rkey = 'self'
                WHERE m.did = ? AND m.created_at < ? ORDER BY m.created_at DESC, m.subject LIMIT ?
                """, [viewer.rawValue, cursor ?? "9999", limit + 1])
        }.map(Self.graphRow)
    }

    /// Whom the viewer blocks, newest first, with each block record's URI.
    public func blocks(of viewer: DID, limit: Int, before cursor: String?) throws -> [GraphRow] {
        try database.read {
            try $0.query(
                """
                SELECT b.subject AS did, a.handle, b.created_at, p.cid AS pcid, p.value AS pvalue, b.uri
                FROM records b LEFT JOIN accounts a ON a.did = b.subject
                LEFT JOIN records p ON p.did = b.subject AND p.collection = 'social.grain.actor.profile' AND p.rkey = 'self'
                WHERE b.did = ? AND b.collection = 'social.grain.graph.block' AND b.created_at < ?
                ORDER BY b.created_at DESC, b.uri LIMIT ?
                """, [viewer.rawValue, cursor ?? "9999", limit + 1])
        }.map(Self.graphRow)
    }

    static func graphRow(_ row: Row) -> GraphRow {
        GraphRow(
            did: row.string("did") ?? "", handle: row.string("handle"),
            profile: StoreSQL.profile(cid: row.string("pcid"), json: row.string("pvalue")), createdAt: row.string("created_at") ?? "",
            blockURI: row.string("uri"))
    }

    // MARK: Seen marks

    /// Marks the stories among `uris` that exist as watched by `viewer`; marking twice is a no-op, unknown URIs are
    /// dropped (as Grain's `markStoriesViewed` does). Returns how many marks are new.
    @discardableResult
    public func markViewed(_ uris: [String], by viewer: DID, now: UTCTime) throws -> Int {
        try database.write { connection in
            var added = 0
            for uri in Set(uris) {
                try connection.execute(
                    """
                    INSERT INTO story_views (did, subject, created_at)
                    SELECT ?, uri, ? FROM records WHERE uri = ? AND collection = 'social.grain.story'
                    ON CONFLICT (did, subject) DO NOTHING
                    """, [viewer.rawValue, now.iso8601, uri])
                added += connection.changes
            }
            return added
        }
    }

    /// Removes seen marks of stories older than ``viewRetention``; returns how many went.
    @discardableResult
    public func pruneViews(now: UTCTime) throws -> Int {
        let cutoff = now.adding(seconds: -Self.viewRetention).iso8601
        return try database.write {
            try $0.execute(
                """
                DELETE FROM story_views WHERE subject IN
                    (SELECT uri FROM records WHERE collection = 'social.grain.story' AND created_at < ?)
                """, [cutoff])
            return $0.changes
        }
    }

    // MARK: Preferences

    /// Why a preference or a mute was refused: a bound on private state was reached.
    public struct PreferenceError: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    public func preferences(of viewer: DID) throws -> [String: JSONValue] {
        var preferences: [String: JSONValue] = [:]
        for row in try database.read({ try $0.query("SELECT key, value FROM preferences WHERE did = ?", [viewer.rawValue]) }) {
            guard let key = row.string("key"), let json = row.string("value"),
                let value = try? JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
            else { continue }
            preferences[key] = value
        }
        return preferences
    }

    public func preference(_ key: String, of viewer: DID) throws -> JSONValue? {
        try database.read {
            try $0.queryOne("SELECT value FROM preferences WHERE did = ? AND key = ?", [viewer.rawValue, key])?.string("value")
        }.flatMap { try? JSONDecoder().decode(JSONValue.self, from: Data($0.utf8)) }
    }

    /// Sets one preference (hatk's `putPreference`): any JSON value, within the size bounds above.
    public func putPreference(_ key: String, value: JSONValue, for viewer: DID, now: UTCTime) throws {
        guard !key.isEmpty, key.utf8.count <= Self.maxPreferenceKeyBytes else {
            throw PreferenceError(description: "Preference keys are 1 to \(Self.maxPreferenceKeyBytes) bytes long")
        }
        let json = String(decoding: try JSONEncoder.canonical.encode(value), as: UTF8.self)
        guard json.utf8.count <= Self.maxPreferenceValueBytes else {
            throw PreferenceError(description: "A preference value may be at most \(Self.maxPreferenceValueBytes) bytes of JSON")
        }
        try database.write { connection in
            let count =
                try connection.queryOne(
                    "SELECT COUNT(*) AS n FROM preferences WHERE did = ? AND key != ?", [viewer.rawValue, key])?.int("n") ?? 0
            guard count < Self.maxPreferencesPerAccount else {
                throw PreferenceError(description: "An account may keep at most \(Self.maxPreferencesPerAccount) preferences")
            }
            try connection.execute(
                """
                INSERT INTO preferences (did, key, value, updated_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (did, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
                """, [viewer.rawValue, key, json, now.iso8601])
        }
    }
}
