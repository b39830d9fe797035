import ATProto
import Foundation
import Storage

/// Which blobs an account owns, and which nobody needs any more.
extension BackendStore {
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
