import ATProto
import Foundation
import HTTPServer
import Lexicon
import Synchronization

/// The hatk-compatible backend that runs inside grain-stories by default: XRPC reads, blobs and
/// household accounts on SQLite and the data directory. The front talks to it over HTTP only.
public final class EmbeddedBackend: Sendable {
    public let store: BackendStore
    public let blobs: BlobStore
    let blobQueue = BlobQueue()
    let clock: @Sendable () -> UTCTime
    private let authenticatorBox: Mutex<(any ViewerAuthenticator)?>
    private let baseURL: Mutex<String>

    /// - Parameters:
    ///   - dataDirectory: where `backend.sqlite` and `blobs/` live; created when missing.
    ///   - publicURL: the origin browsers reach us at, for absolute image URLs in views.
    ///   - clock: the current time; tests pass a fixed one to check the 24-hour window.
    ///   - authenticator: who a write acts for; without one every write answers 401.
    ///   - blobFileSystem: the call that writes blob bytes; tests pass one that runs out of space.
    public init(
        dataDirectory: String, publicURL: String, clock: @escaping @Sendable () -> UTCTime = { .now },
        authenticator: (any ViewerAuthenticator)? = nil, blobFileSystem: BlobFileSystem = .system
    ) throws {
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        store = try BackendStore(path: dataDirectory + "/backend.sqlite")
        blobs = try BlobStore(directory: dataDirectory, fileSystem: blobFileSystem)
        self.clock = clock
        authenticatorBox = Mutex(authenticator)
        baseURL = Mutex(Self.trimmed(publicURL))
    }

    /// Changes the origin used in image URLs, e.g. once a server bound to port 0 knows its port.
    public func setPublicURL(_ url: String) {
        baseURL.withLock { $0 = Self.trimmed(url) }
    }

    public var publicURL: String { baseURL.withLock { $0 } }

    /// Who writes act for; set after init when the authenticator itself needs this backend's store.
    public func setAuthenticator(_ authenticator: any ViewerAuthenticator) {
        authenticatorBox.withLock { $0 = authenticator }
    }

    var authenticator: (any ViewerAuthenticator)? { authenticatorBox.withLock { $0 } }

    var views: ViewBuilder { ViewBuilder(publicURL: publicURL) }

    private static func trimmed(_ url: String) -> String {
        url.hasSuffix("/") ? String(url.dropLast()) : url
    }

    /// Adds the backend's paths (`/xrpc/…`, `/img/…`) to a router.
    public func register(on router: inout Router) {
        router.on(.get, "/xrpc/:nsid") { [self] request in
            try await self.query(request)
        }
        // Room for the largest blob plus a little: the limit is enforced while the body streams in.
        router.on(.post, "/xrpc/:nsid", bodyLimit: Self.maxBlobSize + 64 * 1024) { [self] request in
            try await self.procedure(request)
        }
        router.on(.options, "/xrpc/:nsid") { _ in
            Response(status: .ok, headers: XRPC.corsHeaders)
        }
        router.on(.get, "/img/:preset/:did/:cid") { [self] request in
            try self.image(request)
        }
    }

    func query(_ request: Request) async throws -> Response {
        let nsid = try request.parameters.require("nsid")
        switch nsid {
        case "social.grain.unspecced.getStoryAuthors": return try getStoryAuthors(request)
        case "social.grain.unspecced.getStories": return try getStories(request)
        case "social.grain.unspecced.getStory": return try getStory(request)
        case "social.grain.unspecced.getStoryArchive": return try getStoryArchive(request)
        case "social.grain.unspecced.getActorProfile": return try getActorProfile(request)
        case "dev.hatk.getRecord": return try getRecord(request)
        case "com.atproto.sync.getBlob": return try getBlob(request)
        default: return XRPC.error(.notFound, "Method not found: \(nsid)")
        }
    }
}

/// hatk's response conventions: CORS on everything, `{"error": …}` bodies.
enum XRPC {
    static let corsHeaders: HTTPHeaders = [
        "Access-Control-Allow-Origin": "*",
        "Access-Control-Allow-Headers": "*",
        "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
    ]

    static func json<T: Encodable>(_ value: T, status: HTTPStatus = .ok) -> Response {
        // Encoding our own Codable views cannot fail; a failure would be a programming error worth a 500.
        guard let data = try? JSONEncoder.canonical.encode(value) else {
            return Response.text("Internal Server Error", status: .internalServerError)
        }
        var response = Response(status: status, headers: ["Content-Type": "application/json"], body: .bytes(Array(data)))
        for (name, value) in corsHeaders { response.headers[name] = value }
        response.headers["Cache-Control"] = "no-store"
        return response
    }

    static func error(_ status: HTTPStatus, _ message: String) -> Response {
        json(XRPCErrorBody(error: message), status: status)
    }

    /// An error in the atproto form: a machine-readable name and a sentence for people.
    static func error(_ status: HTTPStatus, error: String, message: String) -> Response {
        json(XRPCErrorBody(error: error, message: message), status: status)
    }
}
