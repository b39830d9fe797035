public import ATProto
import Foundation
public import Lexicon
public import Storage

/// Accounts, records and blob ownership of the embedded backend, on SQLite.
public final class BackendStore: Sendable {
    let database: Database
    let tids = TIDClock()
    /// The types of blobs that may be served, by owner and CID: the photos' fast path reads no database.
    let servableTypes: UntilNextWrite<BlobKey, String>
    /// Paired screens by credential hash: a kiosk's fast path reads no database either.
    let knownScreens: UntilNextWrite<String, Screen>

    struct BlobKey: Hashable, Sendable {
        let did: String
        let cid: String
    }

    public init(path: String) throws {
        database = try Database(path: path)
        // Photos, not requests: a household's live stories and a screen's memories are a few hundred.
        servableTypes = UntilNextWrite(database: database, capacity: 4096)
        knownScreens = UntilNextWrite(database: database, capacity: 256)
        try database.migrate(Schema.migrations)
    }

    /// A cache of answers made from this store, emptied by its next write (the photos' fast path keeps its prepared
    /// answers in one).
    public func untilNextWrite<Key, Value>(capacity: Int) -> UntilNextWrite<Key, Value> {
        UntilNextWrite(database: database, capacity: capacity)
    }

    /// The schema version this binary's migrations bring `backend.sqlite` to.
    public static var schemaVersion: Int { Schema.migrations.count }

    /// Merges the write-ahead log into `backend.sqlite` (a clean stop calls this).
    public func checkpoint() throws { try database.checkpoint() }

    /// A trivial read, for the health check: the database opens and answers.
    public func checkReadable() throws {
        _ = try database.read { try $0.queryOne("SELECT COUNT(*) AS n FROM sqlite_master") }
    }

    // MARK: Accounts

    /// - Parameter role: `member`, `guest`, or `owner` for the household's owner (the demo household's first member).
    public func createAccount(handle: String, did: DID = LocalDID.mint(), role: AccountRole = .member, now: UTCTime) throws -> Account {
        let account = Account(did: did, handle: try Handle(handle).rawValue, createdAt: now.iso8601, role: role)
        try database.write {
            try $0.execute(
                "INSERT INTO accounts (did, handle, created_at, role) VALUES (?, ?, ?, ?)",
                [account.did.rawValue, account.handle, account.createdAt, account.role.rawValue])
        }
        return account
    }

    public func accountCount() throws -> Int {
        try database.read { try $0.queryOne("SELECT COUNT(*) AS n FROM accounts")?.int("n") ?? 0 }
    }

    /// Finds an account by DID or handle.
    public func account(_ actor: String) throws -> Account? {
        let row = try database.read {
            try $0.queryOne(
                "SELECT did, handle, created_at, role, disabled_at FROM accounts WHERE did = ? OR handle = ?", [actor, actor.lowercased()])
        }
        guard let row, let did = row.string("did").flatMap(DID.parse) else { return nil }
        return Account(
            did: did, handle: row.string("handle") ?? did.rawValue, createdAt: row.string("created_at") ?? "",
            role: AccountRole(stored: row.string("role")), isDisabled: row.string("disabled_at") != nil)
    }

    // MARK: Records

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
        guard let account = try account(uri.authority) else { return nil }
        let canonical = ATURI(authority: account.did.rawValue, collection: uri.collection, rkey: uri.rkey)
        let row = try database.read {
            try $0.queryOne(Self.recordSelect + " WHERE r.uri = ?", [canonical.description])
        }
        return try row.map(Self.storedRecord)
    }

    /// Every record of one collection in one repo, newest first (for tools and tests).
    public func records(of did: String, collection: String) throws -> [StoredRecord] {
        try database.read {
            try $0.query(Self.recordSelect + " WHERE r.did = ? AND r.collection = ? ORDER BY r.created_at DESC", [did, collection])
        }.map(Self.storedRecord)
    }

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

    static func storedRecord(_ row: Row) throws -> StoredRecord {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data((row.string("value") ?? "null").utf8))
        return StoredRecord(
            uri: try ATURI(row.string("uri") ?? ""), cid: row.string("cid") ?? "", did: row.string("did") ?? "",
            handle: row.string("handle") ?? "", value: value, createdAt: row.string("created_at") ?? "",
            indexedAt: row.string("indexed_at") ?? "", hiddenBySelfLabel: row.int("hidden") == 1,
            hiddenByOwner: row.int("taken_down") == 1)
    }

    static func selfLabels(of value: JSONValue) -> [String] {
        guard case .array(let values)? = value["labels"]?["values"] else { return [] }
        return values.compactMap { $0["val"]?.stringValue }
    }

    // MARK: Blobs

    /// Records that `did` owns the blob `cid`, so its repo may reference it.
    public func recordBlob(did: DID, cid: String, mimeType: String, size: Int, now: UTCTime) throws {
        try database.write {
            try $0.execute(
                // A repeated upload restarts the grace period an unreferenced upload gets before it is collected.
                """
                INSERT INTO blobs (did, cid, mime_type, size, created_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (did, cid) DO UPDATE SET created_at = excluded.created_at
                """,
                [did.rawValue, cid, mimeType, size, now.iso8601])
        }
    }

    /// The MIME type of a blob owned by `did`, or nil when that repo has no such blob.
    public func blobMimeType(did: String, cid: String) throws -> String? {
        try database.read {
            try $0.queryOne("SELECT mime_type FROM blobs WHERE did = ? AND cid = ?", [did, cid])?.string("mime_type")
        }
    }

    /// The MIME type of a blob `did` owns, unless every record referencing it was hidden by the household owner
    /// (a blob no record references yet, a fresh upload, is served).
    func servableBlobMimeType(did: String, cid: String) throws -> String? {
        let key = BlobKey(did: did, cid: cid)
        if let known = servableTypes.value(for: key) { return known }
        let commits = servableTypes.commits
        let type = try readServableBlobMimeType(did: did, cid: cid)
        if let type { servableTypes.remember(type, for: key, readAt: commits) }
        return type
    }

    /// The type of a blob `did` owns if it may be served, from memory only (nil when it was not looked up since the
    /// last write): for the server thread's fast path, which must not wait on the database.
    func knownServableBlobMimeType(did: String, cid: String) -> String? {
        servableTypes.value(for: BlobKey(did: did, cid: cid))
    }

    private func readServableBlobMimeType(did: String, cid: String) throws -> String? {
        try database.read {
            try $0.queryOne(
                """
                SELECT b.mime_type,
                    EXISTS (SELECT 1 FROM blob_refs x WHERE x.did = b.did AND x.cid = b.cid) AS referenced,
                    EXISTS (SELECT 1 FROM blob_refs x WHERE x.did = b.did AND x.cid = b.cid
                        AND NOT EXISTS (SELECT 1 FROM hidden_records h WHERE h.uri = x.uri)) AS visible
                FROM blobs b WHERE b.did = ? AND b.cid = ?
                """, [did, cid])
        }.flatMap { row in
            row.int("referenced") == 1 && row.int("visible") != 1 ? nil : row.string("mime_type")
        }
    }
}

extension JSONEncoder {
    /// Sorted keys and unescaped slashes: stable bytes for storage and tests.
    static var canonical: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
