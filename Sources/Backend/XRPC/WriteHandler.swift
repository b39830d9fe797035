import ATProto
import Foundation
import HTTPServer
import Lexicon
import Storage

/// `createRecord`, `putRecord` and `deleteRecord`: the checks hatk makes and the household's own rules, then the
/// record store; blob files a write leaves unowned go to the blob handler.
final class WriteHandler: Sendable {
    let records: RecordStore
    /// Roles, for the guest rule.
    let accounts: AccountStore
    /// Existing favourites and blocks, and who blocks whom.
    let social: SocialStore
    /// Which blobs a record's author uploaded.
    let blobRows: BlobRowStore
    /// Removes the files of blobs a write left unowned.
    let files: BlobHandler
    let clock: @Sendable () -> UTCTime

    /// How far ahead of our clock a record's `createdAt` may be: clocks drift, but a story dated next week would sit
    /// at the front of everyone's strip until then.
    static let maxClockSkew: Double = 5 * 60

    struct WriteInput: Decodable {
        var collection: String
        var repo: String?
        var rkey: String?
        var record: JSONValue?
    }

    init(store: BackendStore, files: BlobHandler, clock: @escaping @Sendable () -> UTCTime) {
        records = store.records
        accounts = store.accounts
        social = store.social
        blobRows = store.blobs
        self.files = files
        self.clock = clock
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
        try Procedure.checkGuest(did, writing: input.collection, accounts: accounts)
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
        let exists = try rkey.map { try records.record(ATURI(authority: did.rawValue, collection: input.collection, rkey: $0)) != nil } ?? false
        try Procedure.checkRepo(viewer, input.collection, replace && exists ? .update : .create)
        if input.collection == BlockRecord.collection, record["subject"]?.stringValue == did.rawValue {
            throw BackendError.invalidRequest("InvalidRecord: record/subject: you cannot block yourself")
        }
        // One favourite and one block per subject: a double tap or a resent form gets the first one back.
        if !replace, let subject = record["subject"]?.stringValue {
            let existing =
                input.collection == FavoriteRecord.collection
                ? try social.favorite(by: did, of: subject)
                : input.collection == BlockRecord.collection ? try social.block(by: did, of: subject) : nil
            if let existing { return XRPC.json(WriteOutput(uri: existing.uri, cid: existing.cid)) }
        }
        var value = record
        if case .object(var fields) = value, fields["$type"] == nil {
            fields["$type"] = .string(input.collection)
            value = .object(fields)
        }
        do {
            let (output, unowned) = try records.writeRecord(
                did: did, collection: input.collection, rkey: rkey, value: value, replace: replace, now: clock())
            await files.removeBlobFiles(unowned)
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
            guard try blobRows.blobMimeType(did: did.rawValue, cid: cid) != nil else {
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
        let (_, unowned) = try records.removeRecord(did: viewer.did, collection: input.collection, rkey: rkey)
        await files.removeBlobFiles(unowned)
        return XRPC.json([String: String]())
    }
}
