public import ATProto
import Foundation
public import HTTPServer
import Lexicon
public import Video
import Workers

/// The hatk-compatible backend that runs inside grain-stories by default: XRPC reads and writes, blobs and
/// household accounts on SQLite and the data directory. Browsers and remote clients reach it over HTTP; the
/// front in the same process may read through ``queries`` instead.
public final class EmbeddedBackend: Sendable {
    public let store: BackendStore
    public let blobs: BlobStore
    /// Where `backend.sqlite` and `blobs/` live (and the lock backups hold, see `BackupLock`).
    public let dataDirectory: String
    /// Blob stores one at a time off the shared pool (decoding for the variants, three fsyncs); 32 may wait.
    let blobQueue = WorkerPool(label: "blob-writes", workers: 1, queueLimit: 31)
    let clock: @Sendable () -> UTCTime
    /// The origin a request was sent to, for absolute image URLs in views; nil gives relative `/img/…` URLs.
    let origin: @Sendable (Request) -> String?
    /// Who a request acts for; nil makes every request anonymous.
    let authenticator: (any ViewerAuthenticator)?
    /// Every XRPC query needs a viewer the authenticator admits (a household whose stories are its own); false lets
    /// anyone read, as hatk does.
    let privateReads: Bool
    /// Checks uploaded clips and makes their posters; nil refuses `video/*` blobs.
    let clips: ClipProcessor?

    /// - Parameters:
    ///   - dataDirectory: where `backend.sqlite` and `blobs/` live; created when missing.
    ///   - store: `backend.sqlite` opened already, when the authenticator needed it first (the composition root
    ///     builds the authorization server over the store's accounts before the backend); nil opens it here.
    ///   - clock: the current time; tests pass one they can move.
    ///   - authenticator: who a request acts for; without one every request is anonymous and every write answers 401.
    ///   - origin: the origin to put in front of image URLs for a request (the policy that decides it lives with the
    ///     composition root); nil or `""` gives relative URLs.
    ///   - blobFileSystem: the call that writes blob bytes; tests pass one that runs out of space.
    ///   - privateReads: every XRPC query needs a viewer (answered 401 without one).
    ///   - clips: checks uploaded `video/mp4` blobs and makes their posters; nil refuses clips.
    public init(
        dataDirectory: String, store: BackendStore? = nil, clock: @escaping @Sendable () -> UTCTime = { .now },
        authenticator: (any ViewerAuthenticator)? = nil, origin: @escaping @Sendable (Request) -> String? = { _ in nil },
        blobFileSystem: BlobFileSystem = .system, privateReads: Bool = false, clips: ClipProcessor? = nil
    ) throws {
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        self.dataDirectory = dataDirectory
        self.store = try store ?? BackendStore(path: dataDirectory + "/backend.sqlite")
        blobs = try BlobStore(directory: dataDirectory, fileSystem: blobFileSystem)
        self.clock = clock
        self.origin = origin
        self.authenticator = authenticator
        self.privateReads = privateReads
        self.clips = clips
    }

    /// The read queries, for callers in this process (no HTTP, no DPoP): pass the viewer and the image base.
    public var queries: BackendQueries { BackendQueries(store: store, clock: clock) }

    /// The image base of a request's views: the origin it was sent to, without a trailing slash.
    func imageBase(for request: Request) -> String {
        let base = origin(request) ?? ""
        return base.hasSuffix("/") ? String(base.dropLast()) : base
    }

    /// Adds the backend's paths to a router, each prefix a group whose errors take hatk's `{"error"}` shape:
    /// `/xrpc/…` and `/img/…`.
    public func register(on router: inout Router) {
        router.group("/xrpc") { xrpc in
            xrpc.errorResponder = { error, _ in XRPC.error(error) }
            xrpc.on(.get, "/xrpc/:nsid") { [self] request in
                try await self.query(request)
            }
            // Room for the largest blob plus a little: the limit is enforced while the body streams in (in memory),
            // so a write without credentials the authenticator accepts is refused before any of it is read.
            xrpc.on(.post, "/xrpc/:nsid", bodyLimit: Self.maxBlobSize + 64 * 1024, admission: admission) { [self] request in
                try await self.procedure(request)
            }
            // A blob streams to a file beside the blobs (a clip is then renamed into place, never held in memory).
            xrpc.on(
                .post, "/xrpc/" + Procedure.uploadBlob.rawValue, bodyLimit: Self.maxBlobSize + 64 * 1024,
                bodyStorage: .temporaryFile(directory: blobs.temporary), admission: admission
            ) { [self] request in
                try await self.procedure(request, nsid: Procedure.uploadBlob.rawValue)
            }
            xrpc.on(.options, "/xrpc/:nsid") { _ in
                Response(status: .ok, headers: CORS.xrpc.headers)
            }
        }
        router.group("/img") { images in
            images.errorResponder = { error, _ in XRPC.error(error.status, error.message.isEmpty ? error.status.reasonPhrase : error.message) }
            images.on(.get, "/img/:preset/:did/:cid") { [self] request in
                try self.image(request)
            }
        }
    }

    /// Every XRPC procedure needs `Authorization: DPoP <token>` that the authenticator admits (for the household,
    /// an unexpired access token of ours): otherwise hatk's 401 at once, the body unread. Checking the prefix alone
    /// would let `Authorization: DPoP x` make the server hold up to 5 MB per connection.
    var admission: AdmissionCheck {
        { [self] head in
            guard let authorization = head.headers["Authorization"], authorization.lowercased().hasPrefix("dpop "),
                authenticator?.admits(head) ?? true
            else {
                return HTTPError(.unauthorized, "Authentication required")
            }
            return nil
        }
    }
}

/// hatk's response conventions: CORS on everything, `{"error": …}` bodies.
enum XRPC {
    static func json<T: Encodable>(_ value: T, status: HTTPStatus = .ok) -> Response {
        // Encoding our own Codable views cannot fail; a failure would be a programming error worth a 500.
        guard let data = try? JSONEncoder.canonical.encode(value) else {
            return Response.text("Internal Server Error", status: .internalServerError)
        }
        var response = Response(status: status, headers: ["Content-Type": "application/json"], body: .bytes(Array(data)))
        response.allow(.xrpc)
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

    /// An error raised outside a procedure's handler (routing, admission, a body that could not be received).
    static func error(_ error: HTTPError) -> Response {
        // A blob's body streams to disk: a full disk refuses it before the handler, and the client should read the
        // same error as when the blob's own files do not fit.
        if error.status == .insufficientStorage {
            return XRPC.error(
                .insufficientStorage, error: "InsufficientStorage", message: "The server has no room left to receive this upload; nothing was kept")
        }
        return XRPC.error(error.status, error.message.isEmpty ? error.status.reasonPhrase : error.message)
    }

    static func error(_ failure: BackendError) -> Response {
        json(XRPCErrorBody(error: failure.error, message: failure.message), status: failure.status)
    }
}
