import ATProto
import Crypto
import Foundation
import HatkClient
import PostgresStorage
import Synchronization
import TestSupport
import Testing

@testable import FrontState

/// The front's state in a real PostgreSQL (a throwaway cluster per test), as two fronts see it: two
/// `SharedSessions`, each with its own connection pool, on one database and one sealing key.
@Suite(.serialized) struct SharedSessionsTests {
    static let did = "did:plc:mayamayamayamayamayamaya"

    /// Two fronts' views of one database, and the cluster to stop.
    struct Fronts {
        let cluster: PostgresCluster
        let a: SharedSessions
        let b: SharedSessions

        init() throws {
            cluster = try PostgresCluster()
            let key = SealingKey.random()
            let url = try cluster.createDatabase("front")
            do {
                a = try SharedSessions(url: url, sealingKey: key)
                b = try SharedSessions(url: url, sealingKey: key)
            } catch {
                cluster.stop()
                throw error
            }
        }
    }

    func session(_ id: String, expiresAt: Int64 = 100) -> BrowserSession {
        BrowserSession(
            idHash: BrowserSession.hash(id), did: Self.did, handle: "maya.home.test",
            tokens: TokenSet(accessToken: "a1", refreshToken: "r1", expiresAt: expiresAt, subject: Self.did, scope: nil, handle: nil),
            dpopKey: [1, 2, 3], origin: "http://stories.test")
    }

    @Test("a logout on front A ends the session on front B at once, and B sees A's refreshed tokens")
    func logoutOnOneFrontEndsItOnTheOther() throws {
        let fronts = try Fronts()
        defer { fronts.cluster.stop() }
        try fronts.a.sessions.create(session("s"), now: 1000)
        #expect(try fronts.b.sessions.session(id: "s", now: 1001)?.tokens.accessToken == "a1")
        var tokens = session("s").tokens
        tokens.accessToken = "a2"
        #expect(try fronts.a.sessions.updateTokens(tokens, idHash: BrowserSession.hash("s")))
        #expect(try fronts.b.sessions.session(id: "s", now: 1002)?.tokens.accessToken == "a2")
        try fronts.a.sessions.delete(idHash: BrowserSession.hash("s"))
        #expect(try fronts.b.sessions.session(id: "s", now: 1003) == nil)
        #expect(try fronts.b.sessions.isLive(id: "s", now: 1003) == false)
        #expect(try fronts.b.sessions.updateTokens(tokens, idHash: BrowserSession.hash("s")) == false, "a late refresh brings nothing back")
    }

    @Test("the rows hold only the id's hash and sealed tokens; a front with another key cannot open them")
    func rowsAreSealed() throws {
        let fronts = try Fronts()
        defer { fronts.cluster.stop() }
        try fronts.a.sessions.create(session("cookie-value"), now: 1000)
        let dump = try fronts.cluster.psql("SELECT id_hash, encode(sealed_tokens, 'escape') FROM grain_sessions", database: "front")
        #expect(!dump.contains("cookie-value"))
        #expect(!dump.contains("a1") || !dump.contains("r1"), "tokens in the clear: \(dump)")
        let stranger = try SharedSessions(url: fronts.cluster.url(database: "front"), sealingKey: SealingKey.random())
        #expect(try stranger.sessions.session(id: "cookie-value", now: 1001) == nil)
    }

    @Test("a row whose did was edited in the database to another account's is no session on any front")
    func editedDIDIsNoSession() throws {
        let fronts = try Fronts()
        defer { fronts.cluster.stop() }
        try fronts.a.sessions.create(session("s"), now: 1000)
        #expect(try fronts.b.sessions.session(id: "s", now: 1001)?.did == Self.did, "the row as written is a session")
        try fronts.cluster.psql(
            "UPDATE grain_sessions SET did = 'did:plc:jonasjonasjonasjonasjona' WHERE id_hash = '\(BrowserSession.hash("s"))'",
            database: "front")
        #expect(try fronts.a.sessions.session(id: "s", now: 1002) == nil)
        #expect(try fronts.b.sessions.session(id: "s", now: 1002) == nil)
    }

    @Test("a sign-in started on front A finishes on front B once, and only in the browser that started it")
    func pendingSignInsAreTakenOnce() throws {
        let fronts = try Fronts()
        defer { fronts.cluster.stop() }
        let pending = PendingAuthorization(state: "st", codeVerifier: "v", dpopKey: [9], issuer: "http://hatk.test", createdAt: 1000)
        try fronts.a.sessions.savePending(pending, next: "/create", browser: "browser-1")
        let taken = try fronts.b.sessions.takePending(state: "st", browser: "browser-1")
        #expect((try? taken.get())?.0 == pending)
        #expect((try? taken.get())?.next == "/create")
        #expect(refusal(try fronts.a.sessions.takePending(state: "st", browser: "browser-1")) == .unknown)
        try fronts.a.sessions.savePending(
            PendingAuthorization(state: "st2", codeVerifier: "v", dpopKey: [9], issuer: "http://hatk.test", createdAt: 1000),
            next: "/", browser: "browser-1")
        #expect(refusal(try fronts.b.sessions.takePending(state: "st2", browser: "browser-2")) == .otherBrowser)
    }

    @Test("pruning drops expired sessions and abandoned sign-ins, and keeps live ones")
    func pruning() throws {
        let fronts = try Fronts()
        defer { fronts.cluster.stop() }
        try fronts.a.sessions.create(session("old"), now: 0)
        try fronts.a.sessions.create(session("new"), now: BrowserSession.lifetime)
        try fronts.a.sessions.savePending(
            PendingAuthorization(state: "st", codeVerifier: "v", dpopKey: [9], issuer: "i", createdAt: 0), next: "/", browser: "b")
        try fronts.b.sessions.prune(now: BrowserSession.lifetime + 10)
        let rows = try fronts.cluster.psql("SELECT id_hash FROM grain_sessions UNION ALL SELECT state FROM grain_pending_sign_ins", database: "front")
        #expect(rows.split(separator: "\n").map(String.init) == [BrowserSession.hash("new")])
    }

    @Test("a mark written by front A shows on front B's next page; B keeps no stale copy")
    func seenMarksAreShared() throws {
        let fronts = try Fronts()
        defer { fronts.cluster.stop() }
        let onA = SeenMarks(storage: fronts.a.seen)
        let onB = SeenMarks(storage: fronts.b.seen)
        #expect(try onB.state(for: Self.did).uris.isEmpty)
        let uri = try ATURI("at://did:plc:jonasjonasjonasjonasjona/social.grain.story/3kstory00000a")
        onA.mark(uri: uri, createdAt: UTCTime(microseconds: 5_000_000), account: Self.did, now: UTCTime(microseconds: 6_000_000))
        onA.mark(uri: uri, createdAt: UTCTime(microseconds: 5_000_000), account: Self.did, now: UTCTime(microseconds: 7_000_000))
        try onA.flush()
        let state = try onB.state(for: Self.did)
        #expect(state.uris == [uri.description])
        #expect(state.newestSeen["did:plc:jonasjonasjonasjonasjona"] == UTCTime(microseconds: 5_000_000))
        try onB.prune(now: UTCTime(microseconds: 5_000_000 + SeenMarks.retention * 1_000_000 + 1))
        #expect(try onA.state(for: Self.did).uris.isEmpty)
    }

    @Test("a client spreading its attempts over two fronts meets one limit, and the window ends for both")
    func rateLimitIsShared() throws {
        let fronts = try Fronts()
        defer { fronts.cluster.stop() }
        let onA = fronts.a.limiter(scope: "sign-in", perMinute: 3)
        let onB = fronts.b.limiter(scope: "sign-in", perMinute: 3)
        let uploads = fronts.b.limiter(scope: "upload", perMinute: 3)
        #expect(try onA.admit("10.0.0.9", now: 100) == .allowed)
        #expect(try onB.admit("10.0.0.9", now: 110) == .allowed)
        #expect(try onA.admit("10.0.0.9", now: 120) == .allowed)
        #expect(try onB.admit("10.0.0.9", now: 130) == .limited(retryAfter: 30))
        #expect(try onA.admit("10.0.0.9", now: 159) == .limited(retryAfter: 1))
        #expect(try uploads.admit("10.0.0.9", now: 130) == .allowed, "another scope counts apart")
        #expect(try onB.admit("10.0.0.8", now: 130) == .allowed, "another address counts apart")
        #expect(try onB.admit("10.0.0.9", now: 160) == .allowed, "a new window starts")
    }

    @Test("two fronts refreshing one session at once take turns; other sessions do not wait")
    func refreshLockHoldsAcrossPools() async throws {
        let fronts = try Fronts()
        defer { fronts.cluster.stop() }
        let inside = Overlap()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for store in [fronts.a.sessions, fronts.b.sessions, fronts.a.sessions, fronts.b.sessions] {
                group.addTask {
                    try await store.whileRefreshing(idHash: BrowserSession.hash("s")) {
                        inside.enter()
                        try await Task.sleep(for: .milliseconds(40))
                        inside.leave()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(inside.most == 1)
        // Another session's lock is free while this one is held.
        try await fronts.a.sessions.whileRefreshing(idHash: BrowserSession.hash("s")) {
            let other = try await fronts.b.database.withAdvisoryLock(
                PostgresSessionStore.lockKey(BrowserSession.hash("t")), timeout: .milliseconds(100)
            ) { true }
            #expect(other)
        }
    }

    @Test("tables made by a newer grain-stories are refused with a message saying what to do")
    func newerSchemaIsRefused() throws {
        let fronts = try Fronts()
        defer { fronts.cluster.stop() }
        try fronts.cluster.psql("INSERT INTO grain_front_schema (version) VALUES (99)", database: "front")
        let error = #expect(throws: SharedSessions.SchemaTooNew.self) {
            _ = try SharedSessions(url: fronts.cluster.url(database: "front"), sealingKey: SealingKey.random())
        }
        #expect(error?.description.contains("newer grain-stories") == true)
    }
}

/// The refusal a taken sign-in met, or nil when it was handed over (the success carries no `Equatable`).
private func refusal(_ result: Result<(PendingAuthorization, next: String), PendingRefusal>) -> PendingRefusal? {
    if case .failure(let refusal) = result { return refusal }
    return nil
}

/// How many holders of a lock were inside at once, at most: a class so the task group's closures can share it.
private final class Overlap: Sendable {
    private let counts = Mutex((now: 0, most: 0))
    var most: Int { counts.withLock { $0.most } }
    func enter() {
        counts.withLock {
            $0.now += 1
            $0.most = max($0.most, $0.now)
        }
    }
    func leave() { counts.withLock { $0.now -= 1 } }
}
