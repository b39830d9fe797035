import ATProto
import Backend
import Foundation
import HTTPServer
import Imaging
import Lexicon
import Synchronization

/// A clock tests can move.
final class TestClock: Sendable {
    private let current: Mutex<UTCTime>
    init(_ start: UTCTime = UTCTime(iso8601: "2026-08-19T12:00:00.000Z")!) { current = Mutex(start) }
    var now: UTCTime { current.withLock { $0 } }
    func advance(hours: Double) { current.withLock { $0 = $0.adding(seconds: hours * 3600) } }
}

/// A fresh backend in a temporary directory, with its router.
struct BackendFixture {
    let backend: EmbeddedBackend
    let router: Router
    let clock: TestClock
    let directory: String

    /// - Parameter blobFileSystem: how blob bytes are written; fault tests pass a disk that fills up.
    init(blobFileSystem: BlobFileSystem = .system) throws {
        clock = TestClock()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("backend-\(UUID().uuidString)").path
        let clock = self.clock
        backend = try EmbeddedBackend(
            dataDirectory: directory, publicURL: "http://stories.test", clock: { clock.now },
            authenticator: HeaderAuthenticator(), blobFileSystem: blobFileSystem)
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
        let account = try backend.store.createAccount(handle: "\(name).home.test", now: clock.now)
        if let displayName {
            let profile = ProfileRecord(displayName: displayName, createdAt: clock.now.iso8601)
            try backend.store.putRecord(
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
        try backend.store.recordBlob(did: did, cid: blob.cid, mimeType: blob.mimeType, size: blob.size, now: clock.now)
        let created = clock.now.adding(seconds: -hoursAgo * 3600)
        var record = StoryRecord(
            media: BlobRef(cid: blob.cid, mimeType: "image/jpeg", size: blob.size),
            aspectRatio: AspectRatio(width: width, height: height), createdAt: created.iso8601)
        if !labels.isEmpty { record.labels = SelfLabels(labels) }
        let output = try backend.store.putRecord(
            did: did, collection: StoryRecord.collection, value: try JSONValue(encoding: record), now: created)
        return try ATURI(output.uri)
    }

    /// Calls the router in process and returns status and decoded JSON.
    func get(_ path: String, query: String = "") async -> (status: Int, json: JSONValue?, response: Response) {
        let response = await router.respond(to: Request(method: .get, path: path, query: query))
        var json: JSONValue?
        if case .bytes(let bytes) = response.body {
            json = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        }
        return (response.status.code, json, response)
    }

    func xrpc(_ nsid: String, _ query: String = "") async -> (status: Int, json: JSONValue?, response: Response) {
        await get("/xrpc/\(nsid)", query: query)
    }
}

func encode(_ s: String) -> String {
    s.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? s
}

/// Test-only: the viewer is whatever DID the `X-Test-Viewer` header names.
struct HeaderAuthenticator: ViewerAuthenticator {
    func viewer(for request: Request) async -> DID? {
        request.headers["X-Test-Viewer"].flatMap(DID.parse)
    }
}

extension BackendFixture {
    /// POSTs to an XRPC procedure in process, as `viewer` when given.
    func post(
        _ nsid: String, as viewer: DID?, contentType: String = "application/json", body: [UInt8]
    ) async
        -> (status: Int, json: JSONValue?)
    {
        var headers: HTTPHeaders = ["Content-Type": contentType]
        if let viewer { headers["X-Test-Viewer"] = viewer.rawValue }
        let response = await router.respond(to: Request(method: .post, path: "/xrpc/\(nsid)", headers: headers, body: body))
        var json: JSONValue?
        if case .bytes(let bytes) = response.body { json = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) }
        return (response.status.code, json)
    }

    func post(_ nsid: String, as viewer: DID?, json: JSONValue) async -> (status: Int, json: JSONValue?) {
        await post(nsid, as: viewer, body: Array(try! JSONEncoder().encode(json)))
    }
}
