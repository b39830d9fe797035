/// Time that only moves forward, as a distance from an arbitrary origin: what lifetimes, pacing and refresh intervals
/// are measured on, so that setting the machine's calendar (a box without a battery clock syncing at boot) neither
/// keeps a cached page for an hour nor lets requests through early. The calendar itself (records' `createdAt`,
/// expiries, cookies) is the other injected clock, `@Sendable () -> UTCTime`; tests move both by hand
/// (TestSupport's `TestClock`), so nothing that depends on time needs a real wait to be tested.
public struct MonotonicClock: Sendable {
    /// The distance from this clock's origin.
    public var now: @Sendable () -> Duration
    /// Suspends for the given duration (throwing on cancellation).
    public var sleep: @Sendable (Duration) async throws -> Void

    /// - Parameters:
    ///   - now: the distance from the clock's origin; never goes back.
    ///   - sleep: suspends for the given duration.
    public init(now: @escaping @Sendable () -> Duration, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// The process's `ContinuousClock`, from the moment this is called.
    public static var continuous: MonotonicClock {
        let origin = ContinuousClock.now
        return MonotonicClock(now: { ContinuousClock.now - origin }, sleep: { try await Task.sleep(for: $0) })
    }
}
