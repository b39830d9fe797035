import Testing

@testable import AuthServer

struct RateLimiterTests {
    /// The limit applies per key, and the window resets it.
    @Test("a key is limited after N failures until its window ends")
    func limitAndReset() {
        // setup
        var limiter = SignInRateLimiter(limit: 2, window: 60)

        // act
        let fresh = limiter.check(["ip:a"], now: 0)
        limiter.recordFailure(["ip:a", "user:maya"], now: 0)
        let afterOne = limiter.check(["ip:a"], now: 10)
        limiter.recordFailure(["ip:a", "user:maya"], now: 10)
        let afterTwo = limiter.check(["ip:a"], now: 20)
        let otherKey = limiter.check(["ip:b"], now: 20)
        let eitherKey = limiter.check(["ip:b", "user:maya"], now: 30)
        let afterWindow = limiter.check(["ip:a", "user:maya"], now: 60)

        // validate
        #expect(fresh == .allowed)
        #expect(afterOne == .allowed)
        #expect(afterTwo == .limited(retryAfter: 40))
        #expect(otherKey == .allowed)
        #expect(eitherKey == .limited(retryAfter: 30))
        #expect(afterWindow == .allowed)
    }

    /// Expired counters are swept so a spray of addresses cannot grow the table without bound.
    @Test("expired counters are swept once the table is large")
    func sweep() {
        // setup
        var limiter = SignInRateLimiter(limit: 5, window: 60)
        for index in 0..<SignInRateLimiter.sweepThreshold {
            limiter.recordFailure(["ip:\(index)"], now: 0)
        }

        // act
        limiter.recordFailure(["ip:late"], now: 61)

        // validate
        #expect(limiter.trackedKeys == 1)
    }
}
