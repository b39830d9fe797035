import ATProto
import Crypto
import Dispatch
import Foundation
import HTTPServer
import Storage
import Synchronization
import Testing
import Workers

@testable import AuthServer

/// Issue 11 item 14: today's scrypt cost, rehash on sign-in, and hashing that cannot stall page views.
struct PasswordWorkTests {
    /// The stored hash of an account.
    func storedHash(_ fixture: AuthFixture, _ did: String) throws -> String? {
        try fixture.server.database.read {
            try $0.queryOne("SELECT hash FROM passwords WHERE did = ?", [did])?.string("hash")
        }
    }

    @Test("new hashes use N=2^17, r=8, p=1 unless configured otherwise")
    func defaultCost() throws {
        // setup
        let configuration = AuthServerConfiguration(origin: AuthFixture.issuer)

        // act / validate
        #expect(configuration.passwordParameters == PasswordHash.Parameters(n: 1 << 17, r: 8, p: 1))
    }

    @Test("a sign-in rehashes a weaker stored hash with today's cost and keeps the account's sessions")
    func rehashOnSignIn() async throws {
        // setup
        let weak = try AuthFixture()
        let client = TestClient()
        let access = try #require(try await weak.signedIn(client)["access_token"] as? String)
        let stronger = PasswordHash.Parameters(n: 1 << 11, r: 8, p: 1)
        let fixture = try AuthFixture(reopening: weak) { $0.passwordParameters = stronger }
        let before = try #require(try storedHash(fixture, fixture.maya.rawValue))

        // act
        _ = try await fixture.code(for: client)
        let after = try #require(try storedHash(fixture, fixture.maya.rawValue))
        _ = try await fixture.code(for: client)
        let again = try #require(try storedHash(fixture, fixture.maya.rawValue))
        let viewer = await fixture.server.viewer(for: try fixture.resourceRequest(client, accessToken: access))

        // validate
        #expect(PasswordHash.parameters(of: before) == .fastForTests)
        #expect(PasswordHash.parameters(of: after) == stronger)
        #expect(PasswordHash.verify(AuthFixture.password, against: after))
        #expect(again == after, "a hash at today's cost is not redone")
        #expect(viewer == fixture.maya, "rehashing is not a password change: sessions stay")
    }

    @Test("a stored hash stronger than the configured cost is kept")
    func strongerHashKept() async throws {
        // setup
        let strong = try AuthFixture { $0.passwordParameters = PasswordHash.Parameters(n: 1 << 11, r: 8, p: 1) }
        try await strong.server.setPassword(AuthFixture.password, for: strong.maya)
        let fixture = try AuthFixture(reopening: strong)
        let before = try storedHash(fixture, fixture.maya.rawValue)

        // act
        _ = try await fixture.code(for: TestClient())

        // validate
        #expect(try storedHash(fixture, fixture.maya.rawValue) == before)
    }

    @Test("a burst of sign-ins waits on the hashing thread while other requests are answered; past the queue, 503")
    func burstDoesNotStall() async throws {
        // setup
        let fixture = try AuthFixture {
            $0.passwordWorkers = 1
            $0.passwordQueueLimit = 3
        }
        let client = TestClient()
        var requestURIs: [String] = []
        for _ in 0..<4 { requestURIs.append(try await fixture.pushedRequestURI(client)) }
        let release = DispatchSemaphore(value: 0)
        let holder = Task { try await fixture.server.passwords.work.run { release.wait() } }
        try await waitFor { fixture.server.passwords.work.load.running == 1 }
        let finished = Finished()
        let signIns = requestURIs.prefix(3).map { requestURI in
            Task {
                let status = await fixture.submit(client, requestURI: requestURI).status.code
                finished.statuses.withLock { $0.append(status) }
                return status
            }
        }
        try await waitFor { fixture.server.passwords.work.load.waiting == 3 }

        // act
        let unrelated = await fixture.send(Request(method: .get, path: "/.well-known/oauth-authorization-server"))
        let finishedWhileHeld = finished.statuses.withLock { $0 }
        let overflow = await fixture.submit(client, requestURI: requestURIs[3])
        release.signal()
        try await holder.value
        var statuses: [Int] = []
        for signIn in signIns { statuses.append(await signIn.value) }

        // validate
        #expect(unrelated.status.code == 200)
        #expect(finishedWhileHeld.isEmpty, "no sign-in finished while the hashing thread was held")
        #expect(overflow.status.code == 503)
        #expect(overflow.headers["Retry-After"] == "5")
        #expect(overflow.page?.error == SignInEndpoint.busyMessage)
        #expect(statuses == [303, 303, 303])
    }

    /// Statuses of the sign-ins that have finished, written by their tasks.
    final class Finished: Sendable {
        let statuses = Mutex<[Int]>([])
    }

    /// Polls a condition that other threads make true; fails instead of hanging if they never do.
    func waitFor(_ condition: () -> Bool) async throws {
        for _ in 0..<2000 {
            if condition() { return }
            try await Task.sleep(for: .milliseconds(5))
        }
        Issue.record("the condition never became true")
    }
}
