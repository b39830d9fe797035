import ATProto
import Foundation
import HTTPServer
import Lexicon
import Video
import Workers

/// The household's blob files over HTTP: `/img/…` and `getBlob` answers, uploads (photos and clips) on the blob
/// queue under each member's quota, and removing files no account owns any more.
final class BlobHandler: Sendable {
    /// The blobs' rows: who owns what, what may be served.
    let rows: BlobRowStore
    /// Quotas.
    let members: MemberStore
    /// Roles, for the guest rule.
    let accounts: AccountStore
    let files: BlobStore
    /// Blob stores one at a time off the shared pool (decoding for the variants, three fsyncs); 32 may wait.
    let queue = WorkerPool(label: "blob-writes", workers: 1, queueLimit: 31)
    let clock: @Sendable () -> UTCTime
    /// Checks uploaded clips and makes their posters; nil refuses `video/*` blobs.
    let clips: ClipProcessor?
    /// Where the lock backups hold lives (see `BackupLock`): no file is removed while one runs.
    let dataDirectory: String

    init(store: BackendStore, files: BlobStore, clock: @escaping @Sendable () -> UTCTime, clips: ClipProcessor?, dataDirectory: String) {
        rows = store.blobs
        members = store.members
        accounts = store.accounts
        self.files = files
        self.clock = clock
        self.clips = clips
        self.dataDirectory = dataDirectory
    }

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
    func photo(at address: String) throws -> [UInt8]? {
        guard let image = ImagePath(URL(string: address)?.path ?? "") else { return nil }
        guard DID.isValid(image.did), (try? CID(image.cid)) != nil, try rows.servableBlobMimeType(did: image.did, cid: image.cid) != nil
        else { return nil }
        return try Array(Data(contentsOf: URL(fileURLWithPath: files.path(cid: image.cid, preset: image.preset))))
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
    func immediateImage(_ request: Request) -> Response? {
        guard request.method == .get || request.method == .head, let image = ImagePath(request.path),
            let mimeType = rows.knownServableBlobMimeType(did: image.did, cid: image.cid)
        else { return nil }
        return imageResponse(cid: image.cid, preset: image.preset, mimeType: mimeType, request: request)
    }

    func blobResponse(did: String, cid: String, preset: BlobStore.Preset, request: Request) throws -> Response {
        // Parse before touching the filesystem: only well-formed CIDs ever become paths.
        guard DID.isValid(did), (try? CID(cid)) != nil, let mimeType = try rows.servableBlobMimeType(did: did, cid: cid) else {
            return XRPC.error(.notFound, "Blob not found")
        }
        return imageResponse(cid: cid, preset: preset, mimeType: mimeType, request: request)
    }

    /// The file of a servable blob's `preset`: sent from its descriptor, with its CID as the entity tag (304 for a
    /// browser that has it) and byte ranges.
    private func imageResponse(cid: String, preset: BlobStore.Preset, mimeType: String, request: Request) -> Response {
        let contentType = preset == .fullsize ? mimeType : "image/jpeg"
        var response = Response.file(
            at: files.path(cid: cid, preset: preset), contentType: contentType,
            cacheControl: Self.blobCacheControl, etag: "\"\(cid)-\(preset.rawValue)\"", for: request)
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.allow(.anyOrigin)
        response.headers["Content-Security-Policy"] = "default-src 'none'; sandbox"
        return response
    }
}
