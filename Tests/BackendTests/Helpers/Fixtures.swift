import ATProto
import Backend
import Foundation
import HTTPServer
import Imaging
import Lexicon
import Synchronization
import TestSupport
import Testing
import Video

/// A fresh backend in a temporary directory, with its router.
struct BackendFixture {
    let backend: EmbeddedBackend
    let router: Router
    let clock: TestClock
    let directory: String

    /// - Parameters:
    ///   - blobFileSystem: how blob bytes are written; fault tests pass a disk that fills up.
    ///   - authenticator: who requests act for (by default the test's `X-Test-Viewer` header).
    ///   - clips: checks uploaded clips; nil refuses them.
    init(
        blobFileSystem: BlobFileSystem = .system, authenticator: any ViewerAuthenticator = HeaderAuthenticator(), clips: ClipProcessor? = nil
    ) throws {
        clock = TestClock(.fixture)
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("backend-\(UUID().uuidString)").path
        let clock = self.clock
        backend = try EmbeddedBackend(
            dataDirectory: directory, clock: { clock.now }, authenticator: authenticator,
            origin: { _ in "http://stories.test" }, blobFileSystem: blobFileSystem, clips: clips)
        var router = Router()
        backend.register(on: &router)
        self.router = router
    }

    /// A real JPEG: a colour gradient of the given size.
    static func jpeg(width: Int, height: Int, seed: Int = 0) throws -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                pixels[i] = UInt8((x * 255 / max(1, width - 1) + seed * 40) % 256)
                pixels[i + 1] = UInt8(y * 255 / max(1, height - 1))
                pixels[i + 2] = UInt8((seed * 97) % 256)
            }
        }
        return try Imaging.encodeJPEG(RGBImage(width: width, height: height, pixels: pixels), quality: 85)
    }

    func account(_ name: String, displayName: String? = nil) throws -> DID {
        let account = try backend.store.accounts.createAccount(handle: "\(name).home.test", now: clock.now)
        if let displayName {
            let profile = ProfileRecord(displayName: displayName, createdAt: clock.now.iso8601)
            try backend.store.records.putRecord(
                did: account.did, collection: ProfileRecord.collection, rkey: "self",
                value: try JSONValue(encoding: profile), now: clock.now)
        }
        return account.did
    }

    /// Posts a story `hoursAgo` before the clock's now; returns its URI.
    @discardableResult
    func story(by did: DID, hoursAgo: Double, labels: [String] = [], width: Int = 60, height: Int = 80) throws -> ATURI {
        let jpeg = try Self.jpeg(width: width, height: height, seed: Int(hoursAgo * 10))
        let blob = try backend.blobs.store(jpeg, mimeType: "image/jpeg")
        try backend.store.blobs.recordBlob(did: did, cid: blob.cid, mimeType: blob.mimeType, size: blob.size, now: clock.now)
        let created = clock.now.adding(seconds: -hoursAgo * 3600)
        var record = StoryRecord(
            media: BlobRef(cid: blob.cid, mimeType: "image/jpeg", size: blob.size),
            aspectRatio: AspectRatio(width: width, height: height), createdAt: created.iso8601)
        if !labels.isEmpty { record.labels = SelfLabels(labels) }
        let output = try backend.store.records.putRecord(
            did: did, collection: StoryRecord.collection, value: try JSONValue(encoding: record), now: created)
        return try ATURI(output.uri)
    }

    /// Calls the router in process and returns status and decoded JSON; as `viewer` when given.
    func get(_ path: String, query: String = "", as viewer: DID? = nil) async -> (status: Int, json: JSONValue?, response: Response) {
        var headers: HTTPHeaders = [:]
        if let viewer { headers["X-Test-Viewer"] = viewer.rawValue }
        let response = await router.respond(to: Request(method: .get, path: path, query: query, headers: headers))
        var json: JSONValue?
        if case .bytes(let bytes) = response.body {
            json = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        }
        return (response.status.code, json, response)
    }

    func xrpc(_ nsid: String, _ query: String = "", as viewer: DID? = nil) async -> (status: Int, json: JSONValue?, response: Response) {
        await get("/xrpc/\(nsid)", query: query, as: viewer)
    }
}

func encode(_ s: String) -> String {
    s.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? s
}

/// Test-only: the viewer is whatever DID the `X-Test-Viewer` header names, with the scope `X-Test-Scope` names
/// (Grain's full scope string when absent).
struct HeaderAuthenticator: ViewerAuthenticator {
    static let grainScope =
        "atproto blob:image/* repo:social.grain.gallery repo:social.grain.gallery.item repo:social.grain.photo repo:social.grain.photo.exif repo:social.grain.actor.profile repo:social.grain.graph.follow repo:social.grain.favorite repo:social.grain.comment repo:social.grain.story repo:social.grain.graph.block repo:app.bsky.feed.post?action=create"

    func viewer(for request: Request) async -> AuthenticatedViewer? {
        guard let did = request.headers["X-Test-Viewer"].flatMap(DID.parse) else { return nil }
        return AuthenticatedViewer(did: did, scope: request.headers["X-Test-Scope"] ?? Self.grainScope)
    }
}

extension BackendFixture {
    /// POSTs to an XRPC procedure in process, as `viewer` when given.
    func post(
        _ nsid: String, as viewer: DID?, scope: String? = nil, contentType: String = "application/json", body: [UInt8]
    ) async
        -> (status: Int, json: JSONValue?)
    {
        var headers: HTTPHeaders = ["Content-Type": contentType]
        if let viewer { headers["X-Test-Viewer"] = viewer.rawValue }
        if let scope { headers["X-Test-Scope"] = scope }
        let response = await router.respond(to: Request(method: .post, path: "/xrpc/\(nsid)", headers: headers, body: body))
        var json: JSONValue?
        if case .bytes(let bytes) = response.body { json = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) }
        return (response.status.code, json)
    }

    func post(_ nsid: String, as viewer: DID?, scope: String? = nil, json: JSONValue) async -> (status: Int, json: JSONValue?) {
        await post(nsid, as: viewer, scope: scope, body: Array(try! JSONEncoder().encode(json)))
    }
}

extension BackendFixture {
    /// `dev.hatk.createRecord` as `viewer`; returns the status and the output.
    @discardableResult
    func create(_ collection: String, _ record: JSONValue, as viewer: DID) async -> (status: Int, json: JSONValue?) {
        await post("dev.hatk.createRecord", as: viewer, json: .object(["collection": .string(collection), "record": record]))
    }

    /// A favourite of `subject` by `viewer`, made through createRecord; returns its URI.
    func favorite(_ subject: ATURI, by viewer: DID) async throws -> ATURI {
        let record: JSONValue = .object(["subject": .string(subject.description), "createdAt": .string(clock.now.iso8601)])
        let (status, json) = await create(FavoriteRecord.collection, record, as: viewer)
        try #require(status == 200, "favorite: \(String(describing: json))")
        return try ATURI(try #require(json?["uri"]?.stringValue))
    }

    /// A comment on `subject` by `viewer`, `minutesAgo` before the clock, made through createRecord; returns its URI.
    func comment(
        _ text: String, on subject: ATURI, by viewer: DID, minutesAgo: Double = 0, replyTo: ATURI? = nil
    ) async throws -> ATURI {
        var fields: [String: JSONValue] = [
            "text": .string(text), "subject": .string(subject.description),
            "createdAt": .string(clock.now.adding(seconds: -minutesAgo * 60).iso8601),
        ]
        if let replyTo { fields["replyTo"] = .string(replyTo.description) }
        let (status, json) = await create(CommentRecord.collection, .object(fields), as: viewer)
        try #require(status == 200, "comment: \(String(describing: json))")
        return try ATURI(try #require(json?["uri"]?.stringValue))
    }

    /// A block of `subject` by `viewer`; returns the block record's URI.
    func block(_ subject: DID, by viewer: DID) async throws -> ATURI {
        let record: JSONValue = .object(["subject": .string(subject.rawValue), "createdAt": .string(clock.now.iso8601)])
        let (status, json) = await create(BlockRecord.collection, record, as: viewer)
        try #require(status == 200, "block: \(String(describing: json))")
        return try ATURI(try #require(json?["uri"]?.stringValue))
    }

    /// deleteRecord of one of `viewer`'s records.
    func delete(_ uri: ATURI, as viewer: DID) async -> Int {
        await post(
            "dev.hatk.deleteRecord", as: viewer,
            json: .object(["collection": .string(uri.collection), "rkey": .string(uri.rkey)])
        ).status
    }

    /// An XRPC query decoded into `T`, as `viewer` when given.
    func query<T: Decodable>(_ type: T.Type, _ nsid: String, _ query: String = "", as viewer: DID? = nil) async throws -> T {
        let (status, json, _) = await xrpc(nsid, query, as: viewer)
        try #require(status == 200, "\(nsid)?\(query): \(status) \(String(describing: json))")
        return try #require(try json?.decode(as: T.self))
    }
}
