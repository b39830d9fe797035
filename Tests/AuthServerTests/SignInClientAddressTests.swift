import HTTPServer
import Testing

@testable import AuthServer

/// The sign-in throttle counts per client address by the rule the configuration's `clientAddress` gives (the HTTP
/// layer's: the peer, or behind our proxy the last X-Forwarded-For hop).
struct SignInClientAddressTests {
    /// Three failures under unknown usernames (so only the address key fills up), each through `headers`.
    func failThreeTimes(
        _ fixture: AuthFixture, _ client: TestClient, _ requestURI: String, peer: String, forwardedFor: [String]
    ) async
        -> [Int]
    {
        var statuses: [Int] = []
        for (index, hop) in forwardedFor.enumerated() {
            let response = await fixture.submit(
                client, requestURI: requestURI, username: "ghost\(index)", password: "guess", remoteAddress: peer,
                extraHeaders: ["X-Forwarded-For": hop])
            statuses.append(response.status.code)
        }
        return statuses
    }

    @Test("behind a trusted proxy, failed sign-ins count against the last X-Forwarded-For hop, not the proxy")
    func behindProxy() async throws {
        // setup
        let fixture = try AuthFixture {
            $0.signInLimits.addressFreeFailures = 3
            $0.clientAddress = { $0.clientAddress }
        }
        let client = TestClient()
        let requestURI = try await fixture.pushedRequestURI(client)
        let failures = await failThreeTimes(
            fixture, client, requestURI, peer: "127.0.0.1",
            forwardedFor: ["198.51.100.1, 203.0.113.5", "198.51.100.2, 203.0.113.5", "203.0.113.5"])

        // act
        let sameHop = await fixture.submit(
            client, requestURI: requestURI, remoteAddress: "127.0.0.1", extraHeaders: ["X-Forwarded-For": "1.1.1.1, 203.0.113.5"])
        let otherHop = await fixture.submit(
            client, requestURI: requestURI, remoteAddress: "127.0.0.1", extraHeaders: ["X-Forwarded-For": "203.0.113.5, 203.0.113.6"])

        // validate
        #expect(failures == [401, 401, 401])
        #expect(sameHop.status.code == 429, "a forged first hop does not escape the limit")
        #expect(otherHop.status.code == 303, "another client behind the same proxy is not locked out")
    }

    @Test("failed sign-ins from an IPv6 client count against its /64, whichever address in it it uses")
    func ipv6ByItsSlash64() async throws {
        // setup: the address key as the server configures it
        let fixture = try AuthFixture {
            $0.signInLimits.addressFreeFailures = 3
            $0.clientAddress = { $0.clientKey }
        }
        let client = TestClient()
        let requestURI = try await fixture.pushedRequestURI(client)
        var failures: [Int] = []
        for (index, peer) in ["2001:db8:5:1::1", "2001:db8:5:1::2", "2001:db8:5:1:ffff::3"].enumerated() {
            let response = await fixture.submit(
                client, requestURI: requestURI, username: "ghost\(index)", password: "guess", remoteAddress: peer)
            failures.append(response.status.code)
        }

        // act
        let sameBlock = await fixture.submit(client, requestURI: requestURI, remoteAddress: "2001:db8:5:1::4")
        let nextBlock = await fixture.submit(client, requestURI: requestURI, remoteAddress: "2001:db8:5:2::1")

        // validate
        #expect(failures == [401, 401, 401])
        #expect(sameBlock.status.code == 429, "a fresh address in the same /64 does not get a fresh budget")
        #expect(nextBlock.status.code == 303, "another /64 is another client")
    }

    @Test("from a peer that is not a trusted proxy, X-Forwarded-For is ignored and the socket peer is limited")
    func directPeer() async throws {
        // setup
        let fixture = try AuthFixture { $0.signInLimits.addressFreeFailures = 3 }
        let client = TestClient()
        let requestURI = try await fixture.pushedRequestURI(client)
        let failures = await failThreeTimes(
            fixture, client, requestURI, peer: "192.168.1.20", forwardedFor: ["203.0.113.1", "203.0.113.2", "203.0.113.3"])

        // act
        let limited = await fixture.submit(
            client, requestURI: requestURI, remoteAddress: "192.168.1.20", extraHeaders: ["X-Forwarded-For": "203.0.113.4"])

        // validate
        #expect(failures == [401, 401, 401])
        #expect(limited.status.code == 429)
    }
}
