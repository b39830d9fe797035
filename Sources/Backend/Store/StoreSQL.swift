import ATProto
import Crypto
import Foundation
import Lexicon
import Storage

/// The SQL fragments and row readers more than one area store needs, in one place so each store's queries agree on
/// what a record row is, what "hidden" and "blocked" mean, and how a token is stored.
enum StoreSQL {
    /// The columns every record row carries (`r` is the record, `a` its account).
    static let recordColumns = """
        SELECT r.uri, r.cid, r.did, a.handle, r.value, r.created_at, r.indexed_at, r.hidden,
            EXISTS (SELECT 1 FROM hidden_records h WHERE h.uri = r.uri) AS taken_down
        """
    static let recordFrom = " FROM records r JOIN accounts a ON a.did = r.did"
    static let recordSelect = recordColumns + recordFrom

    /// The condition that keeps a record the household owner hid out of every answer (`r` is the record).
    static func notHiddenByOwner(_ alias: String) -> String {
        "NOT EXISTS (SELECT 1 FROM hidden_records h WHERE h.uri = \(alias).uri)"
    }

    /// The condition that drops authors the viewer muted and authors blocked in either direction (`did` is the
    /// author column, `?1` the viewer, or `''` for nobody).
    static func notMutedOrBlocked(_ did: String) -> String {
        """
        \(did) NOT IN (SELECT subject FROM mutes WHERE did = ?1)
        AND \(notBlocked(did))
        """
    }

    /// The condition that drops authors blocked in either direction (`?1` is the viewer).
    static func notBlocked(_ did: String) -> String {
        """
        \(did) NOT IN (SELECT b.subject FROM records b WHERE b.did = ?1 AND b.collection = 'social.grain.graph.block')
        AND \(did) NOT IN (SELECT b.did FROM records b WHERE b.collection = 'social.grain.graph.block' AND b.subject = ?1)
        """
    }

    static func storedRecord(_ row: Row) throws -> StoredRecord {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data((row.string("value") ?? "null").utf8))
        return StoredRecord(
            uri: try ATURI(row.string("uri") ?? ""), cid: row.string("cid") ?? "", did: row.string("did") ?? "",
            handle: row.string("handle") ?? "", value: value, createdAt: row.string("created_at") ?? "",
            indexedAt: row.string("indexed_at") ?? "", hiddenBySelfLabel: row.int("hidden") == 1,
            hiddenByOwner: row.int("taken_down") == 1)
    }

    /// A profile record joined into a row (`pcid`, `pvalue` columns, say); nil when there is none or it does not
    /// decode.
    static func profile(cid: String?, json: String?) -> StoryStore.StoredProfile? {
        guard let cid, let json, let record = try? JSONDecoder().decode(ProfileRecord.self, from: Data(json.utf8))
        else { return nil }
        return StoryStore.StoredProfile(cid: cid, record: record)
    }

    /// How a link's token or a credential is stored: its SHA-256, so a lookup compares hashes and a copy of the
    /// database holds nothing that opens anything.
    static func tokenHash(_ token: String) -> String { Hex.encode(SHA256.hash(token)) }
}
