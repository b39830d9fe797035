/// The time source of `NominatimClient`'s request pacing, injectable so tests can check the spacing without
/// waiting for it.
public struct PacingClock: Sendable {
    /// Monotonic time since an arbitrary fixed origin.
    public var now: @Sendable () -> Duration
    /// Suspends for the given duration (throwing on cancellation).
    public var sleep: @Sendable (Duration) async throws -> Void

    /// - Parameters:
    ///   - now: Monotonic time since an arbitrary fixed origin.
    ///   - sleep: Suspends for the given duration.
    public init(now: @escaping @Sendable () -> Duration, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// The process's `ContinuousClock`.
    public static var continuous: PacingClock {
        let origin = ContinuousClock.now
        return PacingClock(
            now: { ContinuousClock.now - origin },
            sleep: { try await Task.sleep(for: $0) })
    }
}

/// Spaces the starts of requests at least `interval` apart across all callers. Each caller reserves the next
/// free slot inside the actor (no suspension there, so reservations never interleave) and then waits outside
/// it, so waiting callers do not block the actor.
actor RequestGate {
    private let interval: Duration
    private let clock: PacingClock
    private var lastSlot: Duration?

    init(interval: Duration, clock: PacingClock) {
        self.interval = interval
        self.clock = clock
    }

    /// Returns when the caller may send.
    func wait() async throws {
        let now = clock.now()
        let slot = lastSlot.map { max(now, $0 + interval) } ?? now
        lastSlot = slot
        if slot > now { try await clock.sleep(slot - now) }
    }
}
