public import ATProto
import Foundation
public import Lexicon
import Storage

/// Records in the household's repos: writing, replacing and deleting them, with the blob references each holds.
public final class RecordStore: Sendable {
    let database: Database
    /// Record keys for writes that name none; one clock, so keys stay ordered across every area's writes.
    let tids = TIDClock()
    /// Resolves a handle authority in a URI to its DID.
    let accounts: AccountStore

    init(database: Database, accounts: AccountStore) {
        self.database = database
        self.accounts = accounts
    }

    /// Collections whose records point at one thing (`subject`), indexed so views can count and find them.
    static let subjectCollections: Set<String> = [FavoriteRecord.collection, CommentRecord.collection, BlockRecord.collection]

    /// Writes a record into the author's repo and indexes it at once; returns its URI and CID.
    /// - Parameters:
    ///   - rkey: the record key; a fresh TID when nil.
    ///   - replace: overwrite an existing record with the same key (putRecord) instead of failing.
    @discardableResult
    public func putRecord(
        did: DID, collection: String, rkey: String? = nil, value: JSONValue, replace: Bool = false, now: UTCTime
    ) throws -> WriteOutput {
        try writeRecord(did: did, collection: collection, rkey: rkey, value: value, replace: replace, now: now).output
    }

    /// ``putRecord(did:collection:rkey:value:replace:now:)``, also telling which blob files no account owns any more
    /// (a replaced profile's old avatar, say): the caller removes them from disk.
    func writeRecord(
        did: DID, collection: String, rkey: String?, value: JSONValue, replace: Bool, now: UTCTime
    ) throws -> (output: WriteOutput, unownedBlobs: [String]) {
        let key = rkey ?? tids.next(now: now).description
        let uri = ATURI(authority: did.rawValue, collection: collection, rkey: key).description
        let cid = try DAGCBOR.cid(of: value).description
        let json = String(decoding: try JSONEncoder.canonical.encode(value), as: UTF8.self)
        let createdAt = value["createdAt"]?.stringValue.flatMap { UTCTime(iso8601: $0) }?.iso8601 ?? now.iso8601
        let hidden = Self.selfLabels(of: value).contains { LabelPolicy.serverHiddenValues.contains($0) }
        let subject = Self.subjectCollections.contains(collection) ? value["subject"]?.stringValue : nil
        let blobs = Set(Self.blobCIDs(in: value))
        let unowned = try database.write { connection -> [String] in
            try connection.execute(
                """
                INSERT \(replace ? "OR REPLACE" : "") INTO records
                    (uri, did, collection, rkey, cid, value, created_at, indexed_at, hidden, subject)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [uri, did.rawValue, collection, key, cid, json, createdAt, now.iso8601, hidden, subject])
            let previous = try Self.blobReferences(of: uri, connection)
            try connection.execute("DELETE FROM blob_refs WHERE uri = ?", [uri])
            for blob in blobs {
                try connection.execute("INSERT INTO blob_refs (uri, did, cid) VALUES (?, ?, ?)", [uri, did.rawValue, blob])
            }
            return try Self.release(previous.subtracting(blobs), of: did.rawValue, connection)
        }
        return (WriteOutput(uri: uri, cid: cid), unowned)
    }

    /// Deletes one record; true when it existed.
    @discardableResult
    public func deleteRecord(did: DID, collection: String, rkey: String) throws -> Bool {
        try removeRecord(did: did, collection: collection, rkey: rkey).existed
    }

    /// ``deleteRecord(did:collection:rkey:)``, also telling which blob files no account owns any more.
    func removeRecord(did: DID, collection: String, rkey: String) throws -> (existed: Bool, unownedBlobs: [String]) {
        let uri = ATURI(authority: did.rawValue, collection: collection, rkey: rkey).description
        return try database.write { connection in
            try connection.execute("DELETE FROM records WHERE uri = ?", [uri])
            let existed = connection.changes > 0
            let previous = try Self.blobReferences(of: uri, connection)
            try connection.execute("DELETE FROM blob_refs WHERE uri = ?", [uri])
            // Seen marks of a story that is gone are nobody's business any more.
            try connection.execute("DELETE FROM story_views WHERE subject = ?", [uri])
            return (existed, try Self.release(previous, of: did.rawValue, connection))
        }
    }

    static func blobReferences(of uri: String, _ connection: Connection) throws -> Set<String> {
        Set(try connection.query("SELECT cid FROM blob_refs WHERE uri = ?", [uri]).compactMap { $0.string("cid") })
    }

    /// Drops the blob rows of `did` that no record of that account references any more; returns the CIDs no
    /// account has a row for afterwards, whose files may go.
    static func release(_ cids: Set<String>, of did: String, _ connection: Connection) throws -> [String] {
        var unowned: [String] = []
        for cid in cids.sorted() {
            guard try connection.queryOne("SELECT 1 AS x FROM blob_refs WHERE did = ? AND cid = ?", [did, cid]) == nil else { continue }
            try connection.execute("DELETE FROM blobs WHERE did = ? AND cid = ?", [did, cid])
            if try connection.queryOne("SELECT 1 AS x FROM blobs WHERE cid = ?", [cid]) == nil { unowned.append(cid) }
        }
        return unowned
    }

    /// The CIDs of every blob reference (`{"$type":"blob","ref":{"$link":…}}`) anywhere in a record.
    static func blobCIDs(in value: JSONValue, depth: Int = 0) -> [String] {
        guard depth < 16 else { return [] }
        switch value {
        case .object(let fields):
            if fields["$type"] == .string("blob"), let link = fields["ref"]?["$link"]?.stringValue { return [link] }
            return fields.values.flatMap { blobCIDs(in: $0, depth: depth + 1) }
        case .array(let items):
            return items.flatMap { blobCIDs(in: $0, depth: depth + 1) }
        default:
            return []
        }
    }

    /// One record by URI; a handle authority is resolved to its DID first.
    public func record(_ uri: ATURI) throws -> StoredRecord? {
        guard let canonical = try accounts.canonical(uri) else { return nil }
        let row = try database.read {
            try $0.queryOne(StoreSQL.recordSelect + " WHERE r.uri = ?", [canonical.description])
        }
        return try row.map(StoreSQL.storedRecord)
    }

    /// Every record of one collection in one repo, newest first (for tools and tests).
    public func records(of did: String, collection: String) throws -> [StoredRecord] {
        try database.read {
            try $0.query(StoreSQL.recordSelect + " WHERE r.did = ? AND r.collection = ? ORDER BY r.created_at DESC", [did, collection])
        }.map(StoreSQL.storedRecord)
    }

    static func selfLabels(of value: JSONValue) -> [String] {
        guard case .array(let values)? = value["labels"]?["values"] else { return [] }
        return values.compactMap { $0["val"]?.stringValue }
    }
}
