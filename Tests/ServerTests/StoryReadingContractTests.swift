import ATProto
import App
import Backend
import BackendFixtures
import Foundation
import HTTPServer
import HatkClient
import Lexicon
import Outbound
import Readers
import Synchronization
import TestSupport
import Testing

@testable import Server

/// One contract for every way the front reads stories: the embedded backend in process (what a household's pages
/// use), the same backend over HTTP through the hatk client, and a separate fake hatk (Python, hatk's shapes) through
/// the hatk client, as a remote hatk is read. The same household is seeded into each, and each must give the same
/// answers, so the front behaves the same on both backends.
@Suite(.serialized)
struct StoryReadingContractTests {
    /// Ada has two active stories and one from yesterday; Ben one; Cleo none.
    struct Story: Encodable {
        var rkey: String
        var hoursAgo: Double
        var width = 3
        var height = 4
    }

    struct Member: Encodable {
        var handle: String
        var name: String
        var stories: [Story]
    }

    static let household = [
        Member(
            handle: "ada.contract.test", name: "Ada",
            stories: [
                Story(rkey: "3kadaold00000", hoursAgo: 30), Story(rkey: "3kadafirst000", hoursAgo: 3), Story(rkey: "3kadanext0000", hoursAgo: 1),
            ]),
        Member(handle: "ben.contract.test", name: "Ben", stories: [Story(rkey: "3kbenonly0000", hoursAgo: 2, width: 4, height: 3)]),
        Member(handle: "cleo.contract.test", name: "Cleo", stories: []),
    ]

    /// The expectations every reader must meet, in terms of handles (DIDs differ between backends).
    func checkContract(_ reader: any StoryReading, _ label: String) async throws {
        let authors = try await reader.storyAuthors()
        #expect(authors.map(\.profile.handle) == ["ada.contract.test", "ben.contract.test"], "\(label): newest first, no empty authors")
        #expect(authors.map(\.storyCount) == [2, 1], "\(label): the 24-hour window at query time")
        #expect(authors.first?.profile.displayName == "Ada", "\(label)")

        let ada = try #require(try await reader.profile("ada.contract.test"), "\(label): a profile by handle")
        let adaDID = try DID(ada.did)
        #expect(try await reader.profile(ada.did)?.handle == "ada.contract.test", "\(label): a profile by DID")
        #expect(try await reader.profile("nobody.contract.test") == nil, "\(label): an unknown actor is nobody")

        let active = try await reader.stories(of: adaDID)
        #expect(active.map(\.rkey) == ["3kadafirst000", "3kadanext0000"], "\(label): oldest first, yesterday's left out")
        #expect(active.allSatisfy { $0.creator.handle == "ada.contract.test" }, "\(label)")
        #expect(active.map(\.aspectRatio) == [AspectRatio(width: 3, height: 4), AspectRatio(width: 3, height: 4)], "\(label)")
        #expect(active.allSatisfy { !$0.fullsize.isEmpty && !$0.thumb.isEmpty }, "\(label): image URLs")

        let old = try #require(
            try await reader.story(ATURI(authority: ada.did, collection: StoryRecord.collection, rkey: "3kadaold00000")),
            "\(label): a permalink to an expired story still opens")
        // getStory's view is hatk's reduced one (no `expired`): the front tells from createdAt, as Grain does.
        let created = try #require(UTCTime(iso8601: old.createdAt), "\(label)")
        #expect(StoryRecord.isExpired(createdAt: created, now: .now), "\(label)")
        let missing = ATURI(authority: ada.did, collection: StoryRecord.collection, rkey: "3kzzzzzzzzzzz")
        #expect(try await reader.story(missing) == nil, "\(label): a story that does not exist")

        let firstPage = try await reader.storyArchive(of: adaDID, limit: 2, cursor: nil)
        #expect(firstPage.stories.map(\.rkey) == ["3kadanext0000", "3kadafirst000"], "\(label): the archive, newest first")
        let cursor = try #require(firstPage.cursor, "\(label): a full page has a cursor")
        let secondPage = try await reader.storyArchive(of: adaDID, limit: 2, cursor: cursor)
        #expect(secondPage.stories.map(\.rkey) == ["3kadaold00000"], "\(label): the next page")

        let cleo = try #require(try await reader.profile("cleo.contract.test"), "\(label)")
        #expect(try await reader.stories(of: DID(cleo.did)).isEmpty, "\(label): no stories, no error")
    }

    /// The household in a fresh embedded backend.
    func embeddedBackend(authenticator: (any ViewerAuthenticator)? = nil) throws -> (EmbeddedBackend, TemporaryDirectory) {
        let directory = TemporaryDirectory("contract")
        let backend = try EmbeddedBackend(
            dataDirectory: directory.path, clock: { .now }, authenticator: authenticator, origin: { _ in "http://127.0.0.1" })
        let photo = try DemoPhoto.bytes()
        let now = UTCTime.now
        for member in Self.household {
            let account = try backend.store.accounts.createAccount(handle: member.handle, now: now.adding(seconds: -40 * 3600))
            try backend.store.records.putRecord(
                did: account.did, collection: ProfileRecord.collection, rkey: "self",
                value: try JSONValue(encoding: ProfileRecord(displayName: member.name, createdAt: now.iso8601)), now: now)
            for story in member.stories {
                let blob = try backend.blobs.store(photo, mimeType: "image/jpeg")
                try backend.store.blobs.recordBlob(did: account.did, cid: blob.cid, mimeType: "image/jpeg", size: blob.size, now: now)
                let created = now.adding(seconds: -story.hoursAgo * 3600)
                let record = StoryRecord(
                    media: BlobRef(cid: blob.cid, mimeType: "image/jpeg", size: blob.size),
                    aspectRatio: AspectRatio(width: story.width, height: story.height), createdAt: created.iso8601)
                try backend.store.records.putRecord(
                    did: account.did, collection: StoryRecord.collection, rkey: story.rkey, value: try JSONValue(encoding: record), now: created)
            }
        }
        return (backend, directory)
    }

    /// The backend's XRPC API on loopback, on a port the system chooses.
    func serve(_ backend: EmbeddedBackend) throws -> HTTPServer {
        var router = Router()
        backend.register(on: &router)
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        let server = HTTPServer(configuration: configuration, router: router)
        try server.start()
        return server
    }

    /// A hatk client for the server at `origin`, allowed to call it on loopback.
    static func client(of origin: String) throws -> HatkClient {
        let url = try #require(URL(string: origin))
        return HatkClient(baseURL: url, timeout: 10, policy: AddressPolicy.publicOnly.allowing([url]))
    }

    @Test("the embedded backend read in process keeps the contract")
    func inProcess() async throws {
        let (backend, directory) = try embeddedBackend()
        defer { directory.remove() }
        let reader = EmbeddedStories(queries: backend.queries).reader(for: nil)
        try await checkContract(reader, "in process")
        // The household's store finds "On this day" in one query; a remote hatk has no such method.
        #expect(reader.memories != nil)
        #expect(RemoteStories(client: try Self.client(of: "http://127.0.0.1:9")).reader(for: nil).memories == nil)
    }

    @Test("the embedded backend read over HTTP by the hatk client keeps the contract")
    func overHTTP() async throws {
        let (backend, directory) = try embeddedBackend()
        defer { directory.remove() }
        let server = try serve(backend)
        let client = try Self.client(of: "http://127.0.0.1:\(server.port)")
        do {
            try await checkContract(client.reader, "over HTTP")
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    /// What Ben did before reading: favourited and commented on Ada's first story, watched it, muted Cleo.
    struct BenActions {
        var favourite: String
        var ada: DID, cleo: DID
    }

    /// The expectations for a signed-in reader: the answers carry the viewer's own state, and nothing of it leaks to
    /// another viewer.
    func checkSignedInContract(asBen: any StoryReading, asAda: any StoryReading, _ did: BenActions, _ label: String) async throws {
        let strip = try await asBen.storyAuthors()
        let ada = try #require(strip.first { $0.profile.did == did.ada.rawValue }, "\(label): Ada is in Ben's strip")
        let active = try await asBen.stories(of: did.ada)
        #expect(ada.unviewedCount == 1, "\(label): one of Ada's two stories is still unwatched")
        #expect(ada.lastViewedAt == active.first?.createdAt, "\(label): the newest story Ben watched")
        #expect(active.map { $0.viewer?.fav } == [did.favourite, nil], "\(label): Ben's favourite on the first story only")
        #expect(active.first?.commentCount == 1, "\(label)")
        #expect(try await asAda.stories(of: did.ada).map { $0.viewer?.fav } == [nil, nil], "\(label): Ben's favourite is his, not Ada's")

        let relationships = try await asBen.relationships()
        #expect(relationships.muted == [did.cleo.rawValue] && relationships.blocking.isEmpty, "\(label): Ben muted Cleo")
        #expect(try await asBen.mutes(limit: 50, cursor: nil).items.map(\.did) == [did.cleo.rawValue], "\(label)")
        #expect(try await asBen.profile(did.cleo.rawValue)?.viewer?.muted == true, "\(label): the profile says so")
        #expect(try await asAda.relationships().muted.isEmpty, "\(label): Ada muted nobody")

        let notifications = try await asAda.notifications(limit: 50, cursor: nil, countOnly: false)
        #expect(notifications.notifications.map(\.reason).sorted() == ["story-comment", "story-favorite"], "\(label): Ada hears of both")
        #expect(notifications.unseenCount == 2, "\(label)")
        #expect(try await asBen.notifications(limit: 50, cursor: nil, countOnly: false).notifications.isEmpty, "\(label)")
        let first = try #require(active.first, "\(label)")
        let thread = try await asBen.commentThread(on: ATURI(first.uri), limit: 50, cursor: nil)
        #expect(thread.comments.map(\.text) == ["lovely light"], "\(label)")
    }

    @Test("signed in, the embedded backend in process and over HTTP give each viewer the same own state")
    func signedIn() async throws {
        let port = Mutex<UInt16>(0)
        let origin: @Sendable () -> String = { "http://127.0.0.1:\(port.withLock { $0 })" }
        let (backend, directory) = try embeddedBackend(authenticator: ProofCheckingAuthenticator(origin: origin))
        defer { directory.remove() }
        let server = try serve(backend)
        port.withLock { $0 = server.port }
        let client = try Self.client(of: origin())
        do {
            let did = { (handle: String) throws -> DID in try #require(try backend.store.accounts.account(handle)).did }
            let (ada, ben, cleo) = (try did("ada.contract.test"), try did("ben.contract.test"), try did("cleo.contract.test"))
            let (asAda, asBen) = (ProofCheckingAuthenticator.credentials(ada), ProofCheckingAuthenticator.credentials(ben))
            // Ben's doings go through hatk's HTTP API, as the front writes.
            let first = ATURI(authority: ada.rawValue, collection: StoryRecord.collection, rkey: "3kadafirst000")
            let favourite = try await client.favorite(first, createdAt: UTCTime.now.iso8601, as: asBen)
            _ = try await client.comment("lovely light", on: first, createdAt: UTCTime.now.iso8601, as: asBen)
            try await client.markStoriesViewed([first], as: asBen)
            try await client.muteActor(cleo, as: asBen)
            let actions = BenActions(favourite: favourite.uri, ada: ada, cleo: cleo)

            let inProcess = EmbeddedStories(queries: backend.queries)
            let viewer = { (did: DID, credentials: DPoPCredentials) in StoryViewer(did: did, credentials: { credentials }) }
            try await checkSignedInContract(
                asBen: inProcess.reader(for: viewer(ben, asBen)), asAda: inProcess.reader(for: viewer(ada, asAda)), actions, "in process")
            let remote = RemoteStories(client: client)
            try await checkSignedInContract(
                asBen: remote.reader(for: viewer(ben, asBen)), asAda: remote.reader(for: viewer(ada, asAda)), actions, "over HTTP")
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    @Test("a fake hatk on its own origin, read by the hatk client as a remote hatk is, keeps the contract")
    func remoteHatk() async throws {
        let directory = TemporaryDirectory("contract-hatk")
        defer { directory.remove() }
        let scenario = directory.path + "/household.json"
        try JSONEncoder().encode(Self.household).write(to: URL(fileURLWithPath: scenario))
        let photo = directory.path + "/photo.jpg"
        try Data(try DemoPhoto.bytes()).write(to: URL(fileURLWithPath: photo))
        let script = repositoryRoot.appendingPathComponent("Tests/ServerTests/Deployment/fake_hatk.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, "--scenario", scenario, "--seed-photo", photo]
        let log = directory.path + "/fake-hatk.log"
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        defer { process.terminate() }
        let deadline = ContinuousClock.now + .seconds(20)
        var found: String?
        while found == nil, ContinuousClock.now < deadline, process.isRunning {
            found = captures(#"fake hatk listening on (http://[0-9.:]+)"#, in: (try? String(contentsOfFile: log, encoding: .utf8)) ?? "").first
            if found == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        let origin = try #require(found, "the fake hatk started: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        let client = try Self.client(of: origin)
        try await checkContract(client.reader, "remote hatk")
    }
}

/// A small JPEG the backend accepts as a story photo.
enum DemoPhoto {
    static func bytes() throws -> [UInt8] {
        try gradientJPEG(width: 120, height: 160, seed: 7)
    }
}
