import App
import Foundation
import TestSupport
import Testing

/// Issue 25, N2: the front starts every sign-in at its own authorization server over loopback, so that server's
/// per-address PAR limit (30 a minute) must not count the whole household as one address.
@Suite struct SignInLockoutTests {
    @Test("32 sign-ins started in a minute from two addresses leave a third address able to sign in")
    func twoAddressesCannotLockOutAThird() async throws {
        // setup
        let live = try await LiveApp(behindTLSProxy: true, visibility: .household)
        defer { Task { await live.stop() } }

        // act: each address stays under the front's own limit (20 a minute), together past the server's 30.
        var started: [Int] = []
        for address in ["198.51.100.1", "198.51.100.2"] {
            let flood = Browser(base: live.base, behindTLSProxy: true, forwardedFor: address)
            for _ in 0..<16 {
                let form = try await flood.get("/login")
                let csrf = try #require(captures(#"name="csrf" value="([^"]+)""#, in: form.body).first)
                started.append(try await flood.post("/login", form: [("csrf", csrf), ("handle", "maya.home.test"), ("next", "/")]).status)
            }
        }
        let third = Browser(base: live.base, behindTLSProxy: true, forwardedFor: "198.51.100.3")
        try await third.signInThroughFront(handle: "maya.home.test", password: "maya-stories")
        let home = try await third.get("/")

        // validate
        #expect(started.allSatisfy { $0 == 303 }, "every start reached the authorization server: \(started)")
        #expect(home.status == 200 && home.body.contains("data-signed-in-as"), "the third address signed in: \(home.status)")
    }
}
