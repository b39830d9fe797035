import ATProto
import Crypto
import Foundation
import FrontState
import HTMLRendering
import HTTPServer
import HatkClient
import Imaging
import Outbound
import Publishing
import Readers
import TestSupport
import WebAddresses
import Workers

@testable import App

/// The front in process: its routes on a router that requests are handed to directly (no sockets), over a fake
/// story source, a temporary data directory and a clock the test moves.
struct FrontHarness {
    let front: Front
    let router: Router
    let stories: FakeStories
    let clock: TestClock
    let directory: TemporaryDirectory
    /// The Host every request names unless a test says otherwise.
    static let host = "box.local:8080"

    /// - Parameter origins: how Hosts are judged; by default `box.local:8080` and `localhost:8080` are ours.
    /// - Parameter writer: where writes go (a ``StubHatk``); by default nowhere (a closed port).
    /// - Parameter writerTimeout: how long a write may take, in seconds: long enough by default for a stub answering
    ///   on a machine busy with the other tests running beside this one; a test of a slow story server sets less.
    init(
        household: (any HouseholdDirectory)? = nil, settings: FrontSettings = FrontSettings(),
        origins: (@Sendable (Request) -> OriginDecision)? = nil, writer: URL? = nil, writerTimeout: Double = 45,
        moderation: (any Moderation)? = nil, placeSearch: PlaceFinder? = nil, photos: (any PhotoSource)? = nil,
        descriptions: (any StoryDescribing)? = nil
    ) throws {
        let clock = TestClock(UTCTime(iso8601: "2026-12-01T12:00:00.000Z")!)
        let stories = FakeStories()
        let directory = TemporaryDirectory("front")
        let writerURL = writer ?? URL(string: "http://127.0.0.1:9")!
        var settings = settings
        settings.pageCacheTTL = .zero
        let writerClient = HatkClient(baseURL: writerURL, timeout: writerTimeout, policy: AddressPolicy.publicOnly.allowing([writerURL]))
        front = Front(
            pages: PageRenderer(
                templates: try TemplateRenderer(directory: repositoryRoot.appendingPathComponent("Templates").path),
                assets: try StaticFiles(root: repositoryRoot.appendingPathComponent("Public").path)),
            settings: settings, state: try .local(dataDirectory: directory.path, sealingKey: SealingKey.random()),
            upstream: FrontUpstream(
                stories: stories, writer: writerClient,
                signIn: SignInServers.Configuration(
                    server: .remote(issuer: URL(string: "https://hatk.example")!), timeout: 1, policy: .publicOnly,
                    nonces: ReceivedNonces()),
                photos: photos),
            household: FrontHousehold(directory: household, moderation: moderation, descriptions: descriptions),
            publisher: StoryPublisher(
                writer: writerClient,
                work: WorkerPool(label: "images", workers: max(1, ProcessInfo.processInfo.activeProcessorCount), queueLimit: 16),
                pipeline: PipelineOptions(),
                geocoder: nil, places: nil),
            placeSearch: placeSearch, origins: origins ?? Self.defaultOrigins, clientAddress: { $0.remoteAddress }, probes: nil,
            uploads: directory.path + "/uploads", clock: { clock.now })
        var router = Router()
        front.register(on: &router)
        self.router = router
        self.stories = stories
        self.clock = clock
        self.directory = directory
    }

    /// The household box as the real policy sees it: named `box`, at 192.168.1.20, no canonical origin.
    static let policy = try! OriginPolicy(machine: MachineNames(addresses: { [IPAddress("192.168.1.20")!] }, hostName: { "box" }))

    static let defaultOrigins: @Sendable (Request) -> OriginDecision = { policy.origin(of: $0) }

    /// Answers one request as the server would, without a socket.
    func send(
        _ method: HTTPMethod = .get, _ target: String, headers: [(String, String)] = [], body: [UInt8] = [],
        host: String = FrontHarness.host, from address: String = "192.168.1.30"
    ) async -> Response {
        var all = HTTPHeaders()
        all.add("Host", host)
        for (name, value) in headers { all.add(name, value) }
        let (path, query) = Self.split(target)
        let request = Request(method: method, path: path, query: query, headers: all, body: body, remoteAddress: address)
        return await router.respond(to: request)
    }

    static func split(_ target: String) -> (String, String) {
        guard let mark = target.firstIndex(of: "?") else { return (target, "") }
        return (String(target[..<mark]), String(target[target.index(after: mark)...]))
    }

    /// A session for `did` stored as a sign-in would leave it; returns the session cookie's value.
    func signIn(did: DID, handle: String, origin: String = "http://box.local:8080") throws -> String {
        let id = SecureRandom.token(byteCount: 32)
        let tokens = TokenSet(
            accessToken: "at-\(handle)", refreshToken: "rt-\(handle)", expiresAt: clock.unixSeconds + 3600, subject: did.rawValue,
            scope: nil, handle: handle)
        try front.sessions.create(
            BrowserSession(
                idHash: BrowserSession.hash(id), did: did.rawValue, handle: handle, tokens: tokens,
                dpopKey: P256PrivateKey().rawRepresentation, origin: origin),
            now: clock.unixSeconds)
        return id
    }
}

extension Response {
    /// The body as text.
    var text: String {
        if case .bytes(let bytes) = body { return String(decoding: bytes, as: UTF8.self) }
        return ""
    }
}
