import ATProto
import HTTPServer

extension EmbeddedBackend {
    /// Blobs never change under a CID, so browsers may keep them for a year.
    static let blobCacheControl = "public, max-age=31536000, immutable"

    /// `GET /img/<preset>/<did>/<cid>`: a stored image or one of its variants.
    func image(_ request: Request) throws -> Response {
        guard let preset = BlobStore.Preset(rawValue: try request.parameters.require("preset")) else {
            throw HTTPError(.notFound, "Unknown image preset")
        }
        return try blobResponse(
            did: try request.parameters.require("did"), cid: try request.parameters.require("cid"), preset: preset, request: request)
    }

    /// `com.atproto.sync.getBlob?did&cid`: the original bytes, as hatk serves them in development.
    func getBlob(_ request: Request) throws -> Response {
        guard let did = request.query("did"), let cid = request.query("cid") else {
            return XRPC.error(.badRequest, "Missing required parameters: did and cid")
        }
        return try blobResponse(did: did, cid: cid, preset: .fullsize, request: request)
    }

    private func blobResponse(did: String, cid: String, preset: BlobStore.Preset, request: Request) throws -> Response {
        // Parse before touching the filesystem: only well-formed CIDs ever become paths.
        guard DID.isValid(did), (try? CID(cid)) != nil, let mimeType = try store.blobMimeType(did: did, cid: cid) else {
            return XRPC.error(.notFound, "Blob not found")
        }
        let contentType = preset == .fullsize ? mimeType : "image/jpeg"
        var response = Response.file(
            at: blobs.path(cid: cid, preset: preset), contentType: contentType,
            cacheControl: Self.blobCacheControl, etag: "\"\(cid)-\(preset.rawValue)\"", for: request)
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Access-Control-Allow-Origin"] = "*"
        response.headers["Content-Security-Policy"] = "default-src 'none'; sandbox"
        return response
    }
}
