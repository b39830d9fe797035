import ATProto
import Backups
import Foundation
public import HTTPServer
import Lexicon
import Logging
import Storage
import Units
import Workers

extension EmbeddedBackend {
    /// How long browsers and proxies may keep an image without asking again: a story's life plus an hour. A deleted
    /// story's image may linger in a cache that long, no longer (CIDs never change, so `ETag` revalidation is cheap).
    static let blobCacheControl = "public, max-age=\(StoryRecord.lifetime.components.seconds + 3600)"

    /// `GET /img/<preset>/<did>/<cid>`: a stored image or one of its variants.
    func image(_ request: Request) throws -> Response {
        guard let preset = BlobStore.Preset(rawValue: try request.parameters.require("preset")) else {
            throw HTTPError(.notFound, "Unknown image preset")
        }
        return try blobResponse(
            did: try request.parameters.require("did"), cid: try request.parameters.require("cid"), preset: preset, request: request)
    }

    /// The bytes of an image at one of our `/img/<preset>/<did>/<cid>` addresses (relative, or on any origin), read
    /// in this process: the front makes link previews from them without asking its own listener, whose photos a
    /// household keeps to signed-in browsers. Nil when the address is not such an image of ours.
    public func photo(at address: String) throws -> [UInt8]? {
        guard let image = ImagePath(URL(string: address)?.path ?? "") else { return nil }
        guard DID.isValid(image.did), (try? CID(image.cid)) != nil, try store.blobs.servableBlobMimeType(did: image.did, cid: image.cid) != nil
        else { return nil }
        return try Array(Data(contentsOf: URL(fileURLWithPath: blobs.path(cid: image.cid, preset: image.preset))))
    }

    /// `com.atproto.sync.getBlob?did&cid`: the original bytes, as hatk serves them in development.
    func getBlob(_ request: Request) throws -> Response {
        guard let did = request.query("did"), let cid = request.query("cid") else {
            return XRPC.error(.badRequest, "Missing required parameters: did and cid")
        }
        return try blobResponse(did: did, cid: cid, preset: .fullsize, request: request)
    }

    /// `GET /img/<preset>/<did>/<cid>` answered on the server thread, from memory: nil unless this photo was looked up
    /// since the backend's last write (the async path then reads the database, and the type is remembered). Only a DID
    /// and CID that passed ``blobResponse(did:cid:preset:request:)``'s checks are ever remembered, so a path that
    /// finds one is a well-formed one.
    public func immediateImage(_ request: Request) -> Response? {
        guard request.method == .get || request.method == .head, let image = ImagePath(request.path),
            let mimeType = store.blobs.knownServableBlobMimeType(did: image.did, cid: image.cid)
        else { return nil }
        return imageResponse(cid: image.cid, preset: image.preset, mimeType: mimeType, request: request)
    }

    private func blobResponse(did: String, cid: String, preset: BlobStore.Preset, request: Request) throws -> Response {
        // Parse before touching the filesystem: only well-formed CIDs ever become paths.
        guard DID.isValid(did), (try? CID(cid)) != nil, let mimeType = try store.blobs.servableBlobMimeType(did: did, cid: cid) else {
            return XRPC.error(.notFound, "Blob not found")
        }
        return imageResponse(cid: cid, preset: preset, mimeType: mimeType, request: request)
    }

    /// The file of a servable blob's `preset`: sent from its descriptor, with its CID as the entity tag (304 for a
    /// browser that has it) and byte ranges.
    private func imageResponse(cid: String, preset: BlobStore.Preset, mimeType: String, request: Request) -> Response {
        let contentType = preset == .fullsize ? mimeType : "image/jpeg"
        var response = Response.file(
            at: blobs.path(cid: cid, preset: preset), contentType: contentType,
            cacheControl: Self.blobCacheControl, etag: "\"\(cid)-\(preset.rawValue)\"", for: request)
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.allow(.anyOrigin)
        response.headers["Content-Security-Policy"] = "default-src 'none'; sandbox"
        return response
    }

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
        try checkGuest(viewer, writing: nil)
        guard request.body.count <= Self.maxBlobSize else {
            return XRPC.error(.payloadTooLarge, "The blob is larger than \(Self.maxBlobSize) bytes")
        }
        if isClip, let clips { return try await uploadClip(request.body, viewer: viewer, with: clips) }
        guard let bytes = ImageMetadata.stripped(try request.body.load(), mimeType: mimeType) else {
            return XRPC.error(.badRequest, "The upload is not a readable \(mimeType) image: its structure is broken")
        }
        return try await storeBlob(viewer: viewer, size: bytes.count, cid: { CID(hashing: bytes, codec: .raw).description }) {
            blobs in try blobs.store(bytes, mimeType: mimeType)
        }
    }

    /// Stores a blob on the blob queue and records it, under the owner's quota, answering as hatk does.
    /// - Parameters:
    ///   - cid: the blob's CID, asked for only when the quota is near.
    ///   - write: stores the blob's files; runs on the blob queue.
    ///   - recorded: further rows for the blob, written once its own is (a clip's length).
    func storeBlob(
        viewer: DID, size: Int, cid: @escaping @Sendable () throws -> String,
        recorded: @escaping @Sendable (BackendStore, String) throws -> Void = { _, _ in },
        write: @escaping @Sendable (BlobStore) throws -> BlobStore.StoredBlob
    ) async throws -> Response {
        let stored: BlobStore.StoredBlob
        do {
            let (blobs, store, now) = (blobs, store, clock())
            // Storing and recording happen on the blob queue, like file removal, so a collection never sees a
            // blob's files without their row in the middle of an upload.
            // The quota is checked on the queue too, so two uploads at once cannot both pass it.
            stored = try await blobQueue.run {
                try Self.checkQuota(store, viewer, adding: size, cid: cid)
                let blob = try write(blobs)
                try store.blobs.recordBlob(did: viewer, cid: blob.cid, mimeType: blob.mimeType, size: blob.size, now: now)
                try recorded(store, blob.cid)
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
        let (blobs, store, data) = (blobs, store, dataDirectory)
        do {
            try await blobQueue.run(mandatory: true) {
                try BackupLock.unlessBackingUp(dataDirectory: data) {
                    let unowned = try cids.filter { try store.blobs.blobOwnerCount($0) == 0 }
                    for cid in unowned { blobs.remove(cid: cid) }
                    try store.blobs.forgetClips(unowned)
                }
            }
        } catch {
            // Left for the next collection, which sweeps files without rows.
            log.error("removing blob files: \(error)")
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

extension EmbeddedBackend {
    /// Refuses a blob of `size` bytes when `did` has a quota it would exceed; a blob it already owns costs nothing
    /// again.
    static func checkQuota(_ store: BackendStore, _ did: DID, adding size: Int, cid: () throws -> String) throws {
        let (used, quota) = try store.members.storage(of: did)
        guard let quota, used + size > quota else { return }
        guard try !store.blobs.ownsBlob(did: did, cid: try cid()) else { return }
        throw QuotaExceeded(quota: quota, used: used)
    }
}

/// What an `/img/<preset>/<did>/<cid>` path names, its segments split as the router splits them; nil for any other
/// path. The DID and CID are not checked here: only strings that passed those checks are ever found in the store's
/// memory or used as a file's name.
private struct ImagePath {
    let preset: BlobStore.Preset
    let did: String
    let cid: String

    init?(_ path: String) {
        guard path.hasPrefix("/") else { return nil }
        let parts = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "img", let preset = BlobStore.Preset(rawValue: String(parts[1])) else { return nil }
        self.preset = preset
        did = String(parts[2])
        cid = String(parts[3])
    }
}
