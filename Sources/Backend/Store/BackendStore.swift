import ATProto
import Foundation
import Lexicon
import Storage

/// Accounts, records and blob ownership of the embedded backend, on SQLite.
public final class BackendStore: Sendable {
    /// Self-label values that hide a story everywhere, as hatk's label rules do.
    static let hidingLabels: Set<String> = [
        "!hide", "!takedown", "spam", "copyright", "gore", "nsfl", "dmca-violation", "doxxing",
    ]

    let database: Database
    let tids = TIDClock()

    public init(path: String) throws {
        database = try Database(path: path)
        try database.migrate(Schema.migrations)
    }

    // MARK: Accounts

    public func createAccount(handle: String, did: DID = LocalDID.mint(), now: UTCTime) throws -> Account {
        let account = Account(did: did, handle: try Handle(handle).rawValue, createdAt: now.iso8601)
        try database.write {
            try $0.execute(
                "INSERT INTO accounts (did, handle, created_at) VALUES (?, ?, ?)",
                [account.did.rawValue, account.handle, account.createdAt])
        }
        return account
    }

    public func accountCount() throws -> Int {
        try database.read { try $0.queryOne("SELECT COUNT(*) AS n FROM accounts")?.int("n") ?? 0 }
    }

    /// Finds an account by DID or handle.
    public func account(_ actor: String) throws -> Account? {
        let row = try database.read {
            try $0.queryOne("SELECT did, handle, created_at FROM accounts WHERE did = ? OR handle = ?", [actor, actor.lowercased()])
        }
        guard let row, let did = row.string("did").flatMap(DID.parse) else { return nil }
        return Account(did: did, handle: row.string("handle") ?? did.rawValue, createdAt: row.string("created_at") ?? "")
    }

    // MARK: Records

    /// Writes a record into the author's repo and indexes it at once; returns its URI and CID.
    /// - Parameters:
    ///   - rkey: the record key; a fresh TID when nil.
    ///   - replace: overwrite an existing record with the same key (putRecord) instead of failing.
    @discardableResult
    public func putRecord(
        did: DID, collection: String, rkey: String? = nil, value: JSONValue, replace: Bool = false, now: UTCTime
    ) throws -> WriteOutput {
        let key = rkey ?? tids.next(now: now).description
        let uri = ATURI(authority: did.rawValue, collection: collection, rkey: key)
        let cid = try DAGCBOR.cid(of: value).description
        let json = String(decoding: try JSONEncoder.canonical.encode(value), as: UTF8.self)
        let createdAt = value["createdAt"]?.stringValue.flatMap { UTCTime(iso8601: $0) }?.iso8601 ?? now.iso8601
        let hidden = Self.selfLabels(of: value).contains { Self.hidingLabels.contains($0) }
        try database.write {
            try $0.execute(
                """
                INSERT \(replace ? "OR REPLACE" : "") INTO records
                    (uri, did, collection, rkey, cid, value, created_at, indexed_at, hidden)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [uri.description, did.rawValue, collection, key, cid, json, createdAt, now.iso8601, hidden])
        }
        return WriteOutput(uri: uri.description, cid: cid)
    }

    /// Deletes one record; true when it existed.
    @discardableResult
    public func deleteRecord(did: DID, collection: String, rkey: String) throws -> Bool {
        let uri = ATURI(authority: did.rawValue, collection: collection, rkey: rkey)
        return try database.write {
            try $0.execute("DELETE FROM records WHERE uri = ?", [uri.description])
            return $0.changes > 0
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

    static let recordSelect = """
        SELECT r.uri, r.cid, r.did, a.handle, r.value, r.created_at, r.indexed_at
        FROM records r JOIN accounts a ON a.did = r.did
        """

    static func storedRecord(_ row: Row) throws -> StoredRecord {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data((row.string("value") ?? "null").utf8))
        return StoredRecord(
            uri: try ATURI(row.string("uri") ?? ""), cid: row.string("cid") ?? "", did: row.string("did") ?? "",
            handle: row.string("handle") ?? "", value: value, createdAt: row.string("created_at") ?? "",
            indexedAt: row.string("indexed_at") ?? "")
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
                "INSERT OR IGNORE INTO blobs (did, cid, mime_type, size, created_at) VALUES (?, ?, ?, ?, ?)",
                [did.rawValue, cid, mimeType, size, now.iso8601])
        }
    }

    /// The MIME type of a blob owned by `did`, or nil when that repo has no such blob.
    public func blobMimeType(did: String, cid: String) throws -> String? {
        try database.read {
            try $0.queryOne("SELECT mime_type FROM blobs WHERE did = ? AND cid = ?", [did, cid])?.string("mime_type")
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
