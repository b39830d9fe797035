import ATProto
import Foundation
import HTTPServer
import Lexicon
import Storage

/// `dev.hatk.*` write procedures, each acting only in the authenticated viewer's own repo.
extension EmbeddedBackend {
    /// Largest blob accepted: the story lexicon's `media.maxSize`.
    public static let maxBlobSize = 5_000_000

    struct WriteInput: Decodable {
        var collection: String
        var repo: String?
        var rkey: String?
        var record: JSONValue?
    }

    func procedure(_ request: Request) async throws -> Response {
        var response = try await dispatchProcedure(request)
        if response.headers["DPoP-Nonce"] == nil, let nonce = authenticator?.currentDPoPNonce() {
            response.headers["DPoP-Nonce"] = nonce
        }
        return response
    }

    private func dispatchProcedure(_ request: Request) async throws -> Response {
        let nsid = try request.parameters.require("nsid")
        guard ["dev.hatk.uploadBlob", "dev.hatk.createRecord", "dev.hatk.putRecord", "dev.hatk.deleteRecord"].contains(nsid)
        else { return XRPC.error(.notFound, "Method not found: \(nsid)") }
        guard let viewer = await authenticator?.viewer(for: request) else {
            var response = XRPC.error(.unauthorized, "Authentication required")
            if let challenge = authenticator?.dpopChallenge(for: request) {
                // An atproto-profile client retries once with this nonce.
                response.headers["WWW-Authenticate"] = challenge.wwwAuthenticate
                response.headers["DPoP-Nonce"] = challenge.nonce
            }
            return response
        }
        if nsid == "dev.hatk.uploadBlob" { return try await uploadBlob(request, viewer: viewer) }
        guard request.headers["Content-Type"]?.lowercased().hasPrefix("application/json") == true else {
            return XRPC.error(.unsupportedMediaType, "Expected a JSON body (Content-Type: application/json)")
        }
        let body = try request.body.load()
        let input: WriteInput
        do {
            input = try JSONDecoder().decode(WriteInput.self, from: Data(body))
        } catch {
            return XRPC.error(.badRequest, "InvalidRequest: the body is not the expected JSON object")
        }
        if let repo = input.repo, repo != viewer.rawValue, nsid == "dev.hatk.deleteRecord" {
            return XRPC.error(.forbidden, "You can only delete your own records")
        }
        switch nsid {
        case "dev.hatk.deleteRecord": return try deleteRecord(input, viewer: viewer)
        case "dev.hatk.putRecord": return try writeRecord(input, viewer: viewer, replace: true)
        default: return try writeRecord(input, viewer: viewer, replace: false)
        }
    }

    func uploadBlob(_ request: Request, viewer: DID) async throws -> Response {
        let mimeType =
            (request.headers["Content-Type"] ?? "").split(separator: ";").first.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            } ?? ""
        guard !request.body.isEmpty else { return XRPC.error(.badRequest, "The upload is empty") }
        guard ["image/jpeg", "image/png"].contains(mimeType) else {
            return XRPC.error(
                .unsupportedMediaType, "Only image/jpeg and image/png blobs are accepted, not \(mimeType.isEmpty ? "an untyped body" : mimeType)")
        }
        guard request.body.count <= Self.maxBlobSize else {
            return XRPC.error(.payloadTooLarge, "The blob is larger than \(Self.maxBlobSize) bytes")
        }
        let stored: BlobStore.StoredBlob
        let body = try request.body.load()
        do {
            let blobs = blobs
            stored = try await blobQueue.run { try blobs.store(body, mimeType: mimeType) }
        } catch is BlobQueue.Full {
            var response = XRPC.error(
                .serviceUnavailable, error: "ServerBusy", message: "Many blobs are being stored right now; try again in a few seconds")
            response.headers["Retry-After"] = "5"
            return response
        } catch let error as BlobStore.BlobError {
            switch error.kind {
            case .unreadableImage: return XRPC.error(.badRequest, error.description)
            case .insufficientStorage:
                BackendLog.error("uploadBlob: \(error)")
                return XRPC.error(.insufficientStorage, error: "InsufficientStorage", message: error.description)
            case .writeFailed:
                BackendLog.error("uploadBlob: \(error)")
                return XRPC.error(
                    .internalServerError, error: "InternalServerError", message: "The blob could not be stored; nothing was kept")
            }
        }
        do {
            try store.recordBlob(did: viewer, cid: stored.cid, mimeType: mimeType, size: stored.size, now: clock())
        } catch let error as StorageError where error.isFull {
            // The blob's files are complete and content-addressed: a later upload of the same bytes reuses them.
            BackendLog.error("uploadBlob: \(error)")
            return XRPC.error(
                .insufficientStorage, error: "InsufficientStorage",
                message: "The server has no room left to record this blob; nothing was kept")
        }
        return XRPC.json(UploadBlobOutput(blob: BlobRef(cid: stored.cid, mimeType: mimeType, size: stored.size)))
    }

    func writeRecord(_ input: WriteInput, viewer: DID, replace: Bool) throws -> Response {
        guard let record = input.record else { return XRPC.error(.badRequest, "InvalidRequest: record is required") }
        if let rkey = input.rkey, !RecordKey.isValid(rkey) { return XRPC.error(.badRequest, "InvalidRequest: bad rkey") }
        if replace && input.rkey == nil { return XRPC.error(.badRequest, "InvalidRequest: rkey is required") }
        do {
            try RecordValidator.validate(record, collection: input.collection)
        } catch {
            return XRPC.error(.badRequest, error.description)
        }
        // A record may only point at blobs its author uploaded.
        var blobs = [("record/media", record["media"]), ("record/avatar", record["avatar"])]
        if case .array(let images)? = record["embed"]?["images"] {
            blobs += images.enumerated().map { ("record/embed/images/\($0.offset)/image", $0.element["image"]) }
        }
        for (path, blob) in blobs {
            guard let cid = blob?["ref"]?["$link"]?.stringValue else { continue }
            guard try store.blobMimeType(did: viewer.rawValue, cid: cid) != nil else {
                return XRPC.error(.badRequest, "InvalidRecord: \(path): blob \(cid) was not uploaded by this account")
            }
        }
        var value = record
        if case .object(var fields) = value, fields["$type"] == nil {
            fields["$type"] = .string(input.collection)
            value = .object(fields)
        }
        let rkey = input.collection == ProfileRecord.collection ? (input.rkey ?? "self") : input.rkey
        do {
            let output = try store.putRecord(
                did: viewer, collection: input.collection, rkey: rkey, value: value, replace: replace, now: clock())
            return XRPC.json(output)
        } catch let error as StorageError where error.isConstraintViolation {
            return XRPC.error(.conflict, "A record with this key already exists")
        }
    }

    func deleteRecord(_ input: WriteInput, viewer: DID) throws -> Response {
        guard let rkey = input.rkey, RecordKey.isValid(rkey) else {
            return XRPC.error(.badRequest, "InvalidRequest: rkey is required")
        }
        try store.deleteRecord(did: viewer, collection: input.collection, rkey: rkey)
        return XRPC.json([String: String]())
    }
}
