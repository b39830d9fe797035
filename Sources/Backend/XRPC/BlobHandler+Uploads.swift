import ATProto
import Backups
import Foundation
import HTTPServer
import Lexicon
import Logging
import Storage
import Units
import Workers

/// Uploads: a blob's files and its row are written on the blob queue, under its owner's quota, and files go the same
/// way when no account owns them any more.
extension BlobHandler {
    /// `dev.hatk.uploadBlob`: the raw body, a JPEG or PNG, stored without its metadata (EXIF, XMP, GPS, comments).
    func uploadBlob(_ request: Request, mimeType: String, viewer authenticated: AuthenticatedViewer) async throws -> Response {
        let viewer = authenticated.did
        guard !request.body.isEmpty else { return XRPC.error(.badRequest, "The upload is empty") }
        let isClip = mimeType == "video/mp4" && clips != nil
        guard ["image/jpeg", "image/png"].contains(mimeType) || isClip else {
            let accepted = clips == nil ? "image/jpeg and image/png" : "image/jpeg, image/png and video/mp4"
            return XRPC.error(
                .unsupportedMediaType, "Only \(accepted) blobs are accepted, not \(mimeType.isEmpty ? "an untyped body" : mimeType)")
        }
        try Procedure.checkBlob(authenticated, mimeType)
        try Procedure.checkGuest(viewer, writing: nil, accounts: accounts)
        guard request.body.count <= EmbeddedBackend.maxBlobSize else {
            return XRPC.error(.payloadTooLarge, "The blob is larger than \(EmbeddedBackend.maxBlobSize) bytes")
        }
        if isClip, let clips { return try await uploadClip(request.body, viewer: viewer, with: clips) }
        guard let bytes = ImageMetadata.stripped(try request.body.load(), mimeType: mimeType) else {
            return XRPC.error(.badRequest, "The upload is not a readable \(mimeType) image: its structure is broken")
        }
        return try await storeBlob(viewer: viewer, size: bytes.count, cid: { CID(hashing: bytes, codec: .raw).description }) {
            files in try files.store(bytes, mimeType: mimeType)
        }
    }

    /// Stores a blob on the blob queue and records it, under the owner's quota, answering as hatk does.
    /// - Parameters:
    ///   - cid: the blob's CID, asked for only when the quota is near.
    ///   - write: stores the blob's files; runs on the blob queue.
    ///   - recorded: further rows for the blob, written once its own is (a clip's length).
    func storeBlob(
        viewer: DID, size: Int, cid: @escaping @Sendable () throws -> String,
        recorded: @escaping @Sendable (BlobRowStore, String) throws -> Void = { _, _ in },
        write: @escaping @Sendable (BlobStore) throws -> BlobStore.StoredBlob
    ) async throws -> Response {
        let stored: BlobStore.StoredBlob
        do {
            let (files, rows, members, now) = (files, rows, members, clock())
            // Storing and recording happen on the blob queue, like file removal, so a collection never sees a
            // blob's files without their row in the middle of an upload.
            // The quota is checked on the queue too, so two uploads at once cannot both pass it.
            stored = try await queue.run {
                try Self.checkQuota(members, rows, viewer, adding: size, cid: cid)
                let blob = try write(files)
                try rows.recordBlob(did: viewer, cid: blob.cid, mimeType: blob.mimeType, size: blob.size, now: now)
                try recorded(rows, blob.cid)
                return blob
            }
        } catch let error as QuotaExceeded {
            return XRPC.error(.payloadTooLarge, error: "QuotaExceeded", message: error.description)
        } catch is WorkerPool.Busy {
            var response = XRPC.error(
                .serviceUnavailable, error: "ServerBusy", message: "Many blobs are being stored right now; try again in a few seconds")
            response.headers["Retry-After"] = "5"
            return response
        } catch let error as BlobStore.BlobError {
            switch error.kind {
            case .unreadableImage: return XRPC.error(.badRequest, error.description)
            case .insufficientStorage:
                log.error("uploadBlob: \(error)")
                return XRPC.error(.insufficientStorage, error: "InsufficientStorage", message: error.description)
            case .writeFailed:
                log.error("uploadBlob: \(error)")
                return XRPC.error(
                    .internalServerError, error: "InternalServerError", message: "The blob could not be stored; nothing was kept")
            }
        } catch let error as StorageError where error.isFull {
            // The blob's files are complete and content-addressed: a later upload of the same bytes reuses them, and
            // a collection removes them if none comes.
            log.error("uploadBlob: \(error)")
            return XRPC.error(
                .insufficientStorage, error: "InsufficientStorage",
                message: "The server has no room left to record this blob; nothing was kept")
        }
        return XRPC.json(UploadBlobOutput(blob: BlobRef(cid: stored.cid, mimeType: stored.mimeType, size: stored.size)))
    }

    /// Removes the files of blobs no account has a row for, on the blob queue (after any upload in progress). While a
    /// backup runs nothing is removed: the next collection sweeps files without rows.
    func removeBlobFiles(_ cids: [String]) async {
        guard !cids.isEmpty else { return }
        let (files, rows, data) = (files, rows, dataDirectory)
        do {
            try await queue.run(mandatory: true) {
                try BackupLock.unlessBackingUp(dataDirectory: data) {
                    let unowned = try cids.filter { try rows.blobOwnerCount($0) == 0 }
                    for cid in unowned { files.remove(cid: cid) }
                    try rows.forgetClips(unowned)
                }
            }
        } catch {
            // Left for the next collection, which sweeps files without rows.
            log.error("removing blob files: \(error)")
        }
    }

    /// Removes the files of blobs no account has a row for (including any a failed removal left), on the blob queue
    /// so no upload is between writing its files and recording its row; not while a backup runs (it links the files
    /// its snapshot names), when the next collection does it. Returns how many went.
    func removeUnownedFiles() async throws -> Int {
        let (files, rows, data) = (files, rows, dataDirectory)
        return try await queue.run(mandatory: true) {
            try BackupLock.unlessBackingUp(dataDirectory: data) {
                let owned = try rows.ownedBlobCIDs()
                var removed = 0
                for cid in files.storedCIDs() where !owned.contains(cid) {
                    files.remove(cid: cid)
                    removed += 1
                }
                return removed
            } ?? 0
        }
    }
}

/// An upload that would take its member past the storage quota the owner set.
struct QuotaExceeded: Error, CustomStringConvertible {
    let quota: Int
    let used: Int

    var description: String {
        "This photo would go past your storage quota of \(ByteCount.text(quota)) (you use \(ByteCount.text(used))). "
            + "Delete some stories, or ask the household's owner for more room."
    }
}

extension BlobHandler {
    /// Refuses a blob of `size` bytes when `did` has a quota it would exceed; a blob it already owns costs nothing
    /// again.
    static func checkQuota(
        _ members: MemberStore, _ rows: BlobRowStore, _ did: DID, adding size: Int, cid: () throws -> String
    ) throws {
        let (used, quota) = try members.storage(of: did)
        guard let quota, used + size > quota else { return }
        guard try !rows.ownsBlob(did: did, cid: try cid()) else { return }
        throw QuotaExceeded(quota: quota, used: used)
    }
}
