import Clocks

/// Spaces the starts of requests at least `interval` apart across all callers. Each caller reserves the next
/// free slot inside the actor (no suspension there, so reservations never interleave) and then waits outside
/// it, so waiting callers do not block the actor.
actor RequestGate {
    private let interval: Duration
    private let clock: MonotonicClock
    private var lastSlot: Duration?

    init(interval: Duration, clock: MonotonicClock) {
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
