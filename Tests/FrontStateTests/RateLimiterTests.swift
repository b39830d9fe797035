import Testing

@testable import FrontState

/// The in-memory limit the uploads, sign-ins and passes of one front count against, as a value driven by `now`.
/// (Its effect on the routes, 429 with Retry-After: `ServerTests.UploadLoadTests`.)
@Suite struct RateLimiterTests {
    @Test("the rate limiter allows N uploads per key and window, then answers how long to wait")
    func rateLimiterWindows() {
        // setup
        var limiter = RateLimit(limit: 2, window: 60)

        // act
        let decisions = [
            limiter.admit("a", now: 100), limiter.admit("a", now: 110), limiter.admit("a", now: 130),
            limiter.admit("b", now: 130), limiter.admit("a", now: 160),
        ]

        // validate
        #expect(decisions == [.allowed, .allowed, .limited(retryAfter: 30), .allowed, .allowed])
    }

    @Test("the rate limiter sweeps expired keys once its table is large")
    func rateLimiterSweep() {
        // setup
        var limiter = RateLimit(limit: 5, window: 60)
        for index in 0..<RateLimit.sweepThreshold { _ = limiter.admit("ip:\(index)", now: 0) }

        // act
        _ = limiter.admit("ip:late", now: 61)

        // validate
        #expect(limiter.trackedKeys == 1)
    }
}
