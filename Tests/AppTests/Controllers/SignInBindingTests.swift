import ATProto
import Crypto
import FrontState
import HTTPServer
import HatkClient
import TestSupport
import Testing

@testable import App

/// Login CSRF: an attacker starts a sign-in as themselves, stops at the callback URL and sends it to a victim.
@Suite struct SignInBindingTests {
    func pending(_ front: FrontHarness, state: String, browser: String) throws {
        let pending = PendingAuthorization(
            state: state, codeVerifier: "v", dpopKey: P256PrivateKey().rawRepresentation, issuer: "https://hatk.example",
            createdAt: front.clock.unixSeconds)
        try front.front.sessions.savePending(pending, next: "/create", browser: browser)
    }

    @Test("a callback opened in a browser other than the one that started the sign-in is refused, and its own session stays")
    func callbackFromAnotherBrowserIsRefused() async throws {
        let front = try FrontHarness()
        let victim = try front.signIn(did: DID("did:plc:victimvictimvictimvictim"), handle: "victim.home.test")
        try pending(front, state: "attacker-state", browser: "attackers-binding-cookie")
        let response = await front.send(
            .get, "/auth/callback?state=attacker-state&code=attackers-code&iss=https://hatk.example",
            headers: [("Cookie", "gs_session=\(victim); gs_signin=victims-own-binding")])
        #expect(response.status == .forbidden)
        #expect(response.text.contains("started in another browser"))
        #expect(response.headers.values("Set-Cookie").allSatisfy { !$0.hasPrefix("gs_session=") })
        #expect(try front.front.sessions.session(id: victim, now: front.clock.unixSeconds) != nil, "the victim stays signed in as themselves")
        // Without any binding cookie it is refused too, and the link is used up either way.
        try pending(front, state: "second", browser: "attackers-binding-cookie")
        let bare = await front.send(.get, "/auth/callback?state=second&code=c")
        #expect(bare.status == .forbidden)
        let replay = await front.send(.get, "/auth/callback?state=second&code=c", headers: [("Cookie", "gs_signin=attackers-binding-cookie")])
        #expect(replay.status == .badRequest)
    }

    @Test("the browser that started the sign-in gets past the binding check (to the code exchange)")
    func sameBrowserProceeds() async throws {
        let front = try FrontHarness()
        try pending(front, state: "mine", browser: "my-binding")
        let response = await front.send(
            .get, "/auth/callback?state=mine&code=c&iss=https://hatk.example", headers: [("Cookie", "gs_signin=my-binding")])
        // The fake authorization server is unreachable, so the exchange fails: after the binding passed.
        #expect(response.status == .badRequest)
        #expect(response.text.contains("Sign-in could not be completed"))
    }

    @Test("an error in the callback is shown in our own words, never the text the link carries")
    func callbackErrorTextIsNotEchoed() async throws {
        let front = try FrontHarness()
        try pending(front, state: "s", browser: "b")
        let response = await front.send(
            .get, "/auth/callback?state=s&error=Your%20account%20is%20locked.%20Call%20%2B1-555-0100&error_description=call%20now",
            headers: [("Cookie", "gs_signin=b")])
        #expect(response.status == .badRequest)
        #expect(!response.text.contains("555-0100"))
        #expect(!response.text.contains("locked"))
        #expect(response.text.contains("could not sign you in"))
    }

    /// The binding cookie a start sets is checked on a live server (`SessionSecurityTests.signInBindingCookie`): here
    /// the authorization server is unreachable, so no start gets that far.
    @Test("too many sign-in starts from one address in a minute are slowed down (429)")
    func startsAreRateLimited() async throws {
        var settings = FrontSettings()
        settings.signInsPerMinute = 2
        let front = try FrontHarness(settings: settings)
        let token = String(repeating: "c", count: 43)
        let headers = [("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", "gs_csrf=\(token)"), ("Origin", "http://box.local:8080")]
        var statuses: [Int] = []
        var cookies: [String] = []
        for _ in 0..<3 {
            let response = await front.send(.post, "/login", headers: headers, body: Array("csrf=\(token)&handle=maya.home.test".utf8))
            statuses.append(response.status.code)
            cookies += response.headers.values("Set-Cookie")
        }
        // The fake hatk is unreachable (502) until the third start in a minute, which waits.
        #expect(statuses == [502, 502, 429])
        #expect(!cookies.contains { $0.hasPrefix("gs_signin=") }, "a start that went nowhere binds nothing: \(cookies)")
    }
}
