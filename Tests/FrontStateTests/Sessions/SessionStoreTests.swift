import ATProto
import Crypto
import HatkClient
import Storage
import TestSupport
import Testing

@testable import FrontState

@Suite struct SessionStoreTests {
    func store() throws -> SessionStore {
        try SessionStore(path: TemporaryDirectory("sessions").path + "/front.sqlite", key: SealingKey.random())
    }

    func session(_ id: String) -> BrowserSession {
        BrowserSession(
            idHash: BrowserSession.hash(id), did: "did:plc:mayamayamayamayamayamaya", handle: "maya.home.test",
            tokens: TokenSet(
                accessToken: "a1", refreshToken: "r1", expiresAt: 100, subject: "did:plc:mayamayamayamayamayamaya", scope: nil, handle: nil),
            dpopKey: [1, 2, 3], origin: "http://box.local:8080")
    }

    @Test("a refresh replaces the tokens without moving the session's end")
    func refreshDoesNotSlideTheLifetime() throws {
        let store = try store()
        try store.create(session("s"), now: 1000)
        var tokens = session("s").tokens
        tokens.accessToken = "a2"
        #expect(try store.updateTokens(tokens, idHash: BrowserSession.hash("s")))
        #expect(try store.session(id: "s", now: 1000 + BrowserSession.lifetime - 1)?.tokens.accessToken == "a2")
        #expect(try store.session(id: "s", now: 1000 + BrowserSession.lifetime) == nil, "it ends when it would have without the refresh")
    }

    @Test("a refresh that finishes after sign-out does not bring the session back")
    func refreshAfterLogoutStaysSignedOut() throws {
        let store = try store()
        try store.create(session("s"), now: 1000)
        try store.delete(idHash: BrowserSession.hash("s"))
        #expect(try store.updateTokens(session("s").tokens, idHash: BrowserSession.hash("s")) == false)
        #expect(try store.session(id: "s", now: 1001) == nil)
    }

    @Test("pruning deletes expired sessions and abandoned sign-ins, and keeps live ones")
    func pruningDeletesExpiredRows() throws {
        let store = try store()
        try store.create(session("old"), now: 0)
        try store.create(session("new"), now: BrowserSession.lifetime)
        let pending = PendingAuthorization(state: "p", codeVerifier: "v", dpopKey: [1], issuer: "i", createdAt: 0)
        try store.savePending(pending, next: "/", browser: "b")
        try store.prune(now: BrowserSession.lifetime + 10)
        let rows = try store.database.read { try $0.query("SELECT id_hash FROM sessions").compactMap { $0.string("id_hash") } }
        #expect(rows == [BrowserSession.hash("new")])
        let pendings = try store.database.read { try $0.query("SELECT state FROM pending_sign_ins") }
        #expect(pendings.isEmpty)
    }

    @Test("a row whose did was edited to another account's is no session: the sealed tokens' subject decides")
    func editedDIDIsNoSession() throws {
        let store = try store()
        try store.create(session("s"), now: 1000)
        try store.database.write {
            try $0.execute("UPDATE sessions SET did = ? WHERE id_hash = ?", ["did:plc:jonasjonasjonasjonasjona", BrowserSession.hash("s")])
        }
        #expect(try store.session(id: "s", now: 1001) == nil)
        try store.database.write {
            try $0.execute("UPDATE sessions SET did = ? WHERE id_hash = ?", [session("s").did, BrowserSession.hash("s")])
        }
        #expect(try store.session(id: "s", now: 1002)?.did == session("s").did, "the row as written is a session")
    }
}
