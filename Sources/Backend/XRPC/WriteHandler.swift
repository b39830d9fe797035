import ATProto
import Foundation
import HTTPServer
import Lexicon
import Storage

/// `POST /xrpc/<nsid>`: the procedures, each acting only for the authenticated viewer, within their token's scope.
extension EmbeddedBackend {
    /// Largest blob accepted: the story lexicon's `media.maxSize`.
    public static let maxBlobSize = 5_000_000
    /// Largest JSON input of any procedure; the biggest real one (a comment with facets) is a few kilobytes.
    static let maxJSONInput = 256 * 1024
    /// How far ahead of our clock a record's `createdAt` may be: clocks drift, but a story dated next week would sit
    /// at the front of everyone's strip until then.
    public static let maxClockSkew: Double = 5 * 60

    struct WriteInput: Decodable {
        var collection: String
        var repo: String?
        var rkey: String?
        var record: JSONValue?
    }

    /// - Parameter nsid: the method, when the route names it (`uploadBlob`'s own); else the path's `:nsid`.
    func procedure(_ request: Request, nsid named: String? = nil) async throws -> Response {
        let nsid = try named ?? request.parameters.require("nsid")
        var response = await answer(nsid) { try await self.dispatchProcedure(nsid, request) }
        if response.headers["DPoP-Nonce"] == nil, let nonce = authenticator?.currentDPoPNonce() {
            response.headers["DPoP-Nonce"] = nonce
        }
        return response
    }

    private func dispatchProcedure(_ nsid: String, _ request: Request) async throws -> Response {
        guard let procedure = Procedure(rawValue: nsid) else { return XRPC.error(.notFound, "Method not found: \(nsid.prefix(200))") }
        guard let viewer = await authenticator?.viewer(for: request) else {
            if let challenge = authenticator?.dpopChallenge(for: request) {
                // An atproto-profile client retries once with this nonce.
                var response = XRPC.error(.unauthorized, "Authentication required")
                response.headers["WWW-Authenticate"] = challenge.wwwAuthenticate
                response.headers["DPoP-Nonce"] = challenge.nonce
                return response
            }
            throw procedure.unauthenticated
        }
        let contentType = Self.mediaType(request)
        try procedure.check(viewer)
        if procedure == .uploadBlob { return try await uploadBlob(request, mimeType: contentType, viewer: viewer) }
        guard contentType == "application/json" else {
            return XRPC.error(.unsupportedMediaType, "Expected a JSON body (Content-Type: application/json)")
        }
        guard request.body.count <= Self.maxJSONInput else {
            return XRPC.error(.payloadTooLarge, "The JSON body is larger than \(Self.maxJSONInput) bytes")
        }
        let body = Data(try request.body.load())
        switch procedure {
        case .uploadBlob: return XRPC.error(.notFound, "Method not found: \(nsid)")
        case .createRecord, .putRecord, .deleteRecord:
            guard let input = try? JSONDecoder().decode(WriteInput.self, from: body) else {
                throw BackendError.invalidRequest("InvalidRequest: the body is not the expected JSON object")
            }
            if procedure == .deleteRecord { return try await deleteRecord(input, viewer: viewer) }
            return try await writeRecord(input, viewer: viewer, replace: procedure == .putRecord)
        case .putPreference, .createReport, .muteActor, .unmuteActor, .markStoriesViewed:
            guard let input = try? JSONDecoder().decode(JSONValue.self, from: body), case .object(let fields) = input else {
                throw BackendError.invalidRequest("InvalidRequest: the body is not a JSON object")
            }
            return try accountProcedure(procedure, fields, viewer: viewer.did)
        }
    }

    /// What a guest may write: favourites, comments and blocks, never a story, a gallery or a photo.
    static let guestCollections: Set<String> = [FavoriteRecord.collection, CommentRecord.collection, BlockRecord.collection]

    /// Refuses a guest's write outside ``guestCollections`` (and, with a nil collection, any upload): guests watch,
    /// favourite and comment; only members post.
    func checkGuest(_ did: DID, writing collection: String?) throws {
        guard try store.accounts.role(of: did.rawValue) == .guest else { return }
        if let collection, Self.guestCollections.contains(collection) { return }
        throw BackendError(
            .forbidden, status: .forbidden, error: "Forbidden",
            message: "Guests of this household watch, favourite and comment; only its members post stories")
    }

    /// The body's media type, lower-cased, without parameters.
    static func mediaType(_ request: Request) -> String {
        (request.headers["Content-Type"] ?? "").split(separator: ";").first.map {
            $0.trimmingCharacters(in: .whitespaces).lowercased()
        } ?? ""
    }

    func writeRecord(_ input: WriteInput, viewer: AuthenticatedViewer, replace: Bool) async throws -> Response {
        let did = viewer.did
        guard let record = input.record else { throw BackendError.invalidRequest("InvalidRequest: record is required") }
        // The household has no Bluesky behind it: a post kept here would reach nobody, and a client told it was
        // written would say it had posted to Bluesky. Refused as hatk refuses bad input, so the client tells the truth.
        if Self.isBlueskyCollection(input.collection) {
            throw BackendError.invalidRequest(
                "InvalidRequest: \(input.collection) records go to Bluesky, and this server has no Bluesky: nothing was posted")
        }
        try checkGuest(did, writing: input.collection)
        if let rkey = input.rkey, !RecordKey.isValid(rkey) { throw BackendError.invalidRequest("InvalidRequest: bad rkey") }
        if replace && input.rkey == nil { throw BackendError.invalidRequest("InvalidRequest: rkey is required") }
        do {
            try RecordValidator.validate(record, collection: input.collection)
        } catch {
            throw BackendError.invalidRequest(error.description)
        }
        try checkCreatedAt(record)
        try checkBlobOwnership(record, did: did)
        try checkSocialRules(record, collection: input.collection, did: did)
        let rkey = input.collection == ProfileRecord.collection ? (input.rkey ?? "self") : input.rkey
        let exists = try rkey.map { try store.records.record(ATURI(authority: did.rawValue, collection: input.collection, rkey: $0)) != nil } ?? false
        try Procedure.checkRepo(viewer, input.collection, replace && exists ? .update : .create)
        if input.collection == BlockRecord.collection, record["subject"]?.stringValue == did.rawValue {
            throw BackendError.invalidRequest("InvalidRecord: record/subject: you cannot block yourself")
        }
        // One favourite and one block per subject: a double tap or a resent form gets the first one back.
        if !replace, let subject = record["subject"]?.stringValue {
            let existing =
                input.collection == FavoriteRecord.collection
                ? try store.social.favorite(by: did, of: subject)
                : input.collection == BlockRecord.collection ? try store.social.block(by: did, of: subject) : nil
            if let existing { return XRPC.json(WriteOutput(uri: existing.uri, cid: existing.cid)) }
        }
        var value = record
        if case .object(var fields) = value, fields["$type"] == nil {
            fields["$type"] = .string(input.collection)
            value = .object(fields)
        }
        do {
            let (output, unowned) = try store.records.writeRecord(
                did: did, collection: input.collection, rkey: rkey, value: value, replace: replace, now: clock())
            await removeBlobFiles(unowned)
            return XRPC.json(output)
        } catch let error as StorageError where error.isConstraintViolation {
            throw BackendError(.conflict, status: .conflict, error: "A record with this key already exists")
        }
    }

    /// Bluesky's own records (`app.bsky.*`): only a PDS on the network publishes them, never this backend.
    static func isBlueskyCollection(_ collection: String) -> Bool {
        collection.hasPrefix("app.bsky.")
    }

    /// Refuses a `createdAt` more than ``maxClockSkew`` ahead of our clock.
    func checkCreatedAt(_ record: JSONValue) throws(BackendError) {
        guard let raw = record["createdAt"]?.stringValue, let createdAt = UTCTime(iso8601: raw) else { return }
        let latest = clock().adding(seconds: Self.maxClockSkew)
        guard createdAt <= latest else {
            throw BackendError.invalidRequest(
                "InvalidRecord: record/createdAt: \(raw) is more than \(Int(Self.maxClockSkew / 60)) minutes in the future; check the device's clock")
        }
    }

    /// A record may only point at blobs its author uploaded.
    func checkBlobOwnership(_ record: JSONValue, did: DID) throws {
        var blobs = [("record/media", record["media"]), ("record/avatar", record["avatar"])]
        if case .array(let images)? = record["embed"]?["images"] {
            blobs += images.enumerated().map { ("record/embed/images/\($0.offset)/image", $0.element["image"]) }
        }
        for (path, blob) in blobs {
            guard let cid = blob?["ref"]?["$link"]?.stringValue else { continue }
            guard try store.blobs.blobMimeType(did: did.rawValue, cid: cid) != nil else {
                throw BackendError.invalidRequest("InvalidRecord: \(path): blob \(cid) was not uploaded by this account")
            }
        }
    }

    func deleteRecord(_ input: WriteInput, viewer: AuthenticatedViewer) async throws -> Response {
        if let repo = input.repo, repo != viewer.did.rawValue {
            throw BackendError(.forbidden, status: .forbidden, error: "You can only delete your own records")
        }
        guard let rkey = input.rkey, RecordKey.isValid(rkey) else {
            throw BackendError.invalidRequest("InvalidRequest: rkey is required")
        }
        try Procedure.checkRepo(viewer, input.collection, .delete)
        let (_, unowned) = try store.records.removeRecord(did: viewer.did, collection: input.collection, rkey: rkey)
        await removeBlobFiles(unowned)
        return XRPC.json([String: String]())
    }
}
