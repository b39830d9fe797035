import ATProto
import Foundation
import HTTPServer
import TestSupport
import Testing

@testable import AuthServer

extension Response {
    /// The `name=value` part of the device cookie this response sets, ready for a `Cookie` header.
    var deviceCookie: String? {
        headers.values("Set-Cookie").first { $0.contains("auth_device=") }?.split(separator: ";").first.map(String.init)
    }
}

/// Issue 11 item 9: per-account limits on the resolved account, growing waits, and no lockout of a member's own
/// devices.
struct SignInThrottleTests {
    /// Fails `count` times on `username` with a wrong password, each from its own address so only the account
    /// key counts, and returns the statuses.
    func fail(
        _ fixture: AuthFixture, _ client: TestClient, _ requestURI: String, usernames: [String], cookie: String? = nil
    ) async -> [Int] {
        var statuses: [Int] = []
        for (index, username) in usernames.enumerated() {
            let response = await fixture.submit(
                client, requestURI: requestURI, username: username, password: "guess \(index)",
                remoteAddress: "198.51.100.\(index + 1)", extraHeaders: cookie.map { ["Cookie": $0] } ?? [:])
            statuses.append(response.status.code)
        }
        return statuses
    }

    @Test("the handle, the short name and the DID are one account: their failures add up")
    func oneAccountWhateverTheName() async throws {
        // setup
        let fixture = try AuthFixture { $0.signInLimits.accountFreeFailures = 3 }
        let client = TestClient()
        let requestURI = try await fixture.pushedRequestURI(client)
        let failures = await fail(
            fixture, client, requestURI, usernames: ["maya", "maya.home.test", fixture.maya.rawValue])

        // act
        let limited = await fixture.submit(client, requestURI: requestURI, username: "@MAYA.home.test")
        let otherAccount = await fixture.submit(
            client, requestURI: requestURI, username: "jonas", password: "jonas's own password")

        // validate
        #expect(failures == [401, 401, 401])
        #expect(limited.status.code == 429, "the right password waits too: nothing is checked while limited")
        #expect(limited.headers["Retry-After"] == "2")
        #expect(limited.page?.error == "Too many attempts, try again in 2 seconds")
        #expect(otherAccount.status.code == 303)
    }

    @Test("past the free failures each attempt waits, and the wait doubles with every further failure")
    func growingWaits() async throws {
        // setup
        let fixture = try AuthFixture { $0.signInLimits.accountFreeFailures = 2 }
        let client = TestClient()
        let requestURI = try await fixture.pushedRequestURI(client)
        _ = await fail(fixture, client, requestURI, usernames: ["maya", "maya"])

        // act
        let first = await fixture.submit(client, requestURI: requestURI, password: "x", remoteAddress: "198.51.100.7")
        fixture.clock.advance(seconds: 2)
        let afterFirstWait = await fixture.submit(client, requestURI: requestURI, password: "x", remoteAddress: "198.51.100.7")
        let second = await fixture.submit(client, requestURI: requestURI, password: "x", remoteAddress: "198.51.100.7")
        fixture.clock.advance(seconds: 4)
        let right = await fixture.submit(client, requestURI: requestURI, remoteAddress: "198.51.100.7")

        // validate
        #expect(first.headers["Retry-After"] == "2")
        #expect(afterFirstWait.status.code == 401)
        #expect(second.status.code == 429)
        #expect(second.headers["Retry-After"] == "4")
        #expect(right.status.code == 303)
    }

    @Test("a browser that signed in before is not locked out by an attacker who exhausted the account")
    func memberDeviceExempt() async throws {
        // setup
        let fixture = try AuthFixture { $0.signInLimits.accountFreeFailures = 3 }
        let client = TestClient()
        let earlier = await fixture.submit(client, requestURI: try await fixture.pushedRequestURI(client))
        let cookie = try #require(earlier.deviceCookie)
        let requestURI = try await fixture.pushedRequestURI(client)
        _ = await fail(fixture, client, requestURI, usernames: Array(repeating: "maya", count: 6))

        // act
        let attacker = await fixture.submit(client, requestURI: requestURI, remoteAddress: "203.0.113.66")
        let member = await fixture.submit(
            client, requestURI: requestURI, remoteAddress: "192.168.1.20", extraHeaders: ["Cookie": cookie])

        // validate
        #expect(attacker.status.code == 429)
        #expect(member.status.code == 303)
        #expect(member.deviceCookie != nil, "the device cookie is renewed at every sign-in")
    }

    @Test("a device's own failures are limited on the device, and do not count against the account")
    func deviceFailuresCountOnDevice() async throws {
        // setup
        let fixture = try AuthFixture {
            $0.signInLimits.accountFreeFailures = 3
            $0.signInLimits.deviceFreeFailures = 2
        }
        let client = TestClient()
        let cookie = try #require(
            await fixture.submit(client, requestURI: try await fixture.pushedRequestURI(client)).deviceCookie)
        let requestURI = try await fixture.pushedRequestURI(client)

        // act
        let deviceFailures = await fail(fixture, client, requestURI, usernames: ["maya", "maya", "maya"], cookie: cookie)
        let elsewhere = await fixture.submit(client, requestURI: requestURI, remoteAddress: "198.51.100.50")

        // validate
        #expect(deviceFailures == [401, 401, 429])
        #expect(elsewhere.status.code == 303, "the account's own count is untouched")
    }

    @Test("the device cookie vouches only for its account, only unaltered, and only for a year")
    func deviceCookieBounds() async throws {
        // setup
        let fixture = try AuthFixture { $0.signInLimits.accountFreeFailures = 1 }
        let client = TestClient()
        let cookie = try #require(
            await fixture.submit(client, requestURI: try await fixture.pushedRequestURI(client)).deviceCookie)
        let requestURI = try await fixture.pushedRequestURI(client)
        _ = await fail(fixture, client, requestURI, usernames: ["maya", "jonas"])
        let tampered = String(cookie.dropLast(2)) + (cookie.hasSuffix("AA") ? "BB" : "AA")

        // act
        let otherAccount = await fixture.submit(
            client, requestURI: requestURI, username: "jonas", password: "jonas's own password",
            extraHeaders: ["Cookie": cookie])
        let forged = await fixture.submit(client, requestURI: requestURI, extraHeaders: ["Cookie": tampered])
        let genuine = await fixture.submit(client, requestURI: requestURI, extraHeaders: ["Cookie": cookie])
        fixture.clock.advance(seconds: 365 * 86400)
        _ = await fail(fixture, client, try await fixture.pushedRequestURI(client), usernames: ["maya"])
        let expired = await fixture.submit(
            client, requestURI: try await fixture.pushedRequestURI(client), extraHeaders: ["Cookie": cookie])

        // validate
        #expect(otherAccount.status.code == 429)
        #expect(forged.status.code == 429)
        #expect(genuine.status.code == 303)
        #expect(expired.status.code == 429)
    }

    @Test("the device cookie is HttpOnly and SameSite=Strict; on https it is a Secure __Host- cookie")
    func cookieAttributes() async throws {
        // setup
        let fixture = try AuthFixture(origins: [AuthFixture.issuer, "https://stories.example"])
        let plain = TestClient()
        let tls = TestClient.own("https://stories.example")

        // act
        let http = await fixture.submit(plain, requestURI: try await fixture.pushedRequestURI(plain))
        let https = await fixture.submit(
            tls, requestURI: try await fixture.pushedRequestURI(tls), origin: "https://stories.example")
        let httpCookie = try #require(http.headers.values("Set-Cookie").first)
        let httpsCookie = try #require(https.headers.values("Set-Cookie").first)

        // validate
        #expect(httpCookie.hasPrefix("auth_device="))
        #expect(httpCookie.contains("; HttpOnly") && httpCookie.contains("; SameSite=Strict") && httpCookie.contains("; Path=/"))
        #expect(!httpCookie.contains("Secure"))
        #expect(httpsCookie.hasPrefix("__Host-auth_device="))
        #expect(httpsCookie.hasSuffix("; Secure"))
        #expect(!httpsCookie.contains("Domain"))
    }

    @Test("one browser remembers each household account it signed in to")
    func severalAccounts() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        let maya = try #require(
            await fixture.submit(client, requestURI: try await fixture.pushedRequestURI(client)).deviceCookie)

        // act
        let both = await fixture.submit(
            client, requestURI: try await fixture.pushedRequestURI(client), username: "jonas",
            password: "jonas's own password", extraHeaders: ["Cookie": maya])
        let cookie = DeviceCookie(parsing: both.deviceCookie?.split(separator: "=", maxSplits: 1).last.map(String.init))

        // validate
        #expect(cookie.entries.map(\.did) == [fixture.jonas.rawValue, fixture.maya.rawValue])
    }
}

/// The throttle as a value, driven by `now`.
struct ThrottleScheduleTests {
    let policy = SignInThrottle.Policy(freeFailures: 2, firstDelay: 2, maxDelay: 10)

    @Test("waits double past the free failures up to the cap, and failures are forgotten after a quiet hour")
    func schedule() {
        // setup
        var throttle = SignInThrottle(forgetAfter: 3600)
        let key = [(key: "account:a", policy: policy)]

        // act
        var waits: [Int64?] = []
        for _ in 0..<6 {
            waits.append(throttle.wait(for: key, now: 1000))
            throttle.recordFailure(["account:a"], now: 1000)
        }
        let later = throttle.wait(for: key, now: 1005)
        let forgotten = throttle.wait(for: key, now: 1000 + 3600)

        // validate
        #expect(waits == [nil, nil, 2, 4, 8, 10])
        #expect(later == 5)
        #expect(forgotten == nil)
        #expect(throttle.failures("account:a", now: 4600) == 0)
    }

    @Test("forgotten keys are swept once the table is large")
    func sweep() {
        // setup
        var throttle = SignInThrottle(forgetAfter: 60)
        for index in 0..<SignInThrottle.sweepThreshold {
            throttle.recordFailure(["address:\(index)"], now: 0)
        }

        // act
        throttle.recordFailure(["address:late"], now: 61)

        // validate
        #expect(throttle.trackedKeys == 1)
    }

    @Test("a huge failure count or delay cannot overflow the wait")
    func noOverflow() {
        // setup
        let wide = SignInThrottle.Policy(freeFailures: 0, firstDelay: Int64.max / 2 + 1, maxDelay: Int64.max)

        // act
        let wait = wide.wait(failures: 1_000_000, last: 0, now: 0)
        let capped = policy.wait(failures: Int.max, last: 0, now: 0)

        // validate
        #expect(wait == Int64.max)
        #expect(capped == 10)
    }
}
