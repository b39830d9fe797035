public import ATProto
import Foundation
public import HTTPServer
import Lexicon
public import Video

/// The hatk-compatible backend that runs inside grain-stories by default: XRPC reads and writes, blobs and
/// household accounts on SQLite and the data directory. Browsers and remote clients reach it over HTTP; the
/// front in the same process may read through ``queries`` instead.
public final class EmbeddedBackend: Sendable {
    public let store: BackendStore
    public let blobs: BlobStore
    /// Where `backend.sqlite` and `blobs/` live (and the lock backups hold, see `BackupLock`).
    public let dataDirectory: String
    let clock: @Sendable () -> UTCTime
    /// Who a procedure acts for; nil makes every request anonymous (and every write a 401).
    let authenticator: (any ViewerAuthenticator)?
    /// The XRPC handlers by area, each holding only the stores it uses.
    let reads: QueryHandler
    let writes: WriteHandler
    let files: BlobHandler
    let privateState: PrivateStateHandler

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
        let store = try store ?? BackendStore(path: dataDirectory + "/backend.sqlite")
        let blobs = try BlobStore(directory: dataDirectory, fileSystem: blobFileSystem)
        self.dataDirectory = dataDirectory
        self.store = store
        self.blobs = blobs
        self.clock = clock
        self.authenticator = authenticator
        files = BlobHandler(store: store, files: blobs, clock: clock, clips: clips, dataDirectory: dataDirectory)
        writes = WriteHandler(store: store, files: files, clock: clock)
        privateState = PrivateStateHandler(store: store, clock: clock)
        reads = QueryHandler(
            queries: BackendQueries(store: store, clock: clock), authenticator: authenticator, privateReads: privateReads,
            origin: origin, files: files)
    }

    /// The read queries, for callers in this process (no HTTP, no DPoP): pass the viewer and the image base.
    public var queries: BackendQueries { reads.queries }

    /// The bytes of an image at one of our `/img/<preset>/<did>/<cid>` addresses (relative, or on any origin), read
    /// in this process: the front makes link previews from them without asking its own listener, whose photos a
    /// household keeps to signed-in browsers. Nil when the address is not such an image of ours.
    public func photo(at address: String) throws -> [UInt8]? { try files.photo(at: address) }

    /// `GET /img/<preset>/<did>/<cid>` answered on the server thread, from memory: nil unless this photo was looked up
    /// since the backend's last write (the async path then reads the database).
    public func immediateImage(_ request: Request) -> Response? { files.immediateImage(request) }

    /// Adds the backend's paths to a router, each prefix a group whose errors take hatk's `{"error"}` shape:
    /// `/xrpc/…` and `/img/…`.
    public func register(on router: inout Router) {
        router.group("/xrpc") { xrpc in
            xrpc.errorResponder = { error, _ in XRPC.error(error) }
            xrpc.on(.get, "/xrpc/:nsid") { [self] request in
                try await self.reads.query(request)
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
                try self.files.image(request)
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
