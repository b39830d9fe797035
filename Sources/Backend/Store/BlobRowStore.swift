public import ATProto
import Foundation
import Storage

/// Which blobs each account owns, which records reference them and which nobody needs any more, and the lengths of
/// stored clips: the blobs' rows in `backend.sqlite` (their files are ``BlobStore``'s).
public final class BlobRowStore: Sendable {
    let database: Database
    /// The types of blobs that may be served, by owner and CID: the photos' fast path reads no database.
    let servableTypes: UntilNextWrite<BlobKey, String>

    struct BlobKey: Hashable, Sendable {
        let did: String
        let cid: String
    }

    init(database: Database) {
        self.database = database
        // Photos, not requests: a household's live stories and a screen's memories are a few hundred.
        servableTypes = UntilNextWrite(database: database, capacity: 4096)
    }

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

    /// Whether `did` already owns the blob `cid` (a repeated upload costs no quota).
    func ownsBlob(did: DID, cid: String) throws -> Bool {
        try database.read {
            try $0.queryOne("SELECT 1 AS x FROM blobs WHERE did = ? AND cid = ?", [did.rawValue, cid]) != nil
        }
    }

    /// How many accounts have a row for this blob (its files are shared: blobs are content-addressed).
    func blobOwnerCount(_ cid: String) throws -> Int {
        try database.read { try $0.queryOne("SELECT COUNT(*) AS n FROM blobs WHERE cid = ?", [cid])?.int("n") ?? 0 }
    }

    /// Keeps a stored clip's length.
    func recordClip(cid: String, durationMs: Int) throws {
        try database.write { try $0.execute("INSERT OR REPLACE INTO clips (cid, duration_ms) VALUES (?, ?)", [cid, durationMs]) }
    }

    /// Forgets clips whose files are gone.
    func forgetClips(_ cids: [String]) throws {
        guard !cids.isEmpty else { return }
        try database.write { connection in
            for cid in cids { try connection.execute("DELETE FROM clips WHERE cid = ?", [cid]) }
        }
    }

    /// Every CID some account has a row for.
    func ownedBlobCIDs() throws -> Set<String> {
        Set(try database.read { try $0.query("SELECT DISTINCT cid FROM blobs") }.compactMap { $0.string("cid") })
    }

    /// Deletes the rows of uploads made before `cutoff` that no record of their account references: uploads whose
    /// record was never written. Returns the CIDs no account has a row for afterwards, whose files may go.
    func collectUnreferencedBlobs(uploadedBefore cutoff: UTCTime) throws -> (rows: Int, unowned: [String]) {
        try database.write { connection in
            let orphans = try connection.query(
                """
                SELECT did, cid FROM blobs b WHERE b.created_at < ?
                    AND NOT EXISTS (SELECT 1 FROM blob_refs x WHERE x.did = b.did AND x.cid = b.cid)
                LIMIT 10000
                """, [cutoff.iso8601])
            var unowned: [String] = []
            for row in orphans {
                guard let did = row.string("did"), let cid = row.string("cid") else { continue }
                try connection.execute("DELETE FROM blobs WHERE did = ? AND cid = ?", [did, cid])
                if try connection.queryOne("SELECT 1 AS x FROM blobs WHERE cid = ?", [cid]) == nil { unowned.append(cid) }
            }
            return (orphans.count, unowned)
        }
    }
}
