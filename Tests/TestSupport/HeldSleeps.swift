public import Clocks
import Synchronization

/// A monotonic clock whose sleeps wait until the test lets them end: code that waits out a delay on its own (a batch
/// timer) is tested without a real wait, so neither "not before" nor "after" depends on how busy the machine is.
public final class HeldSleeps: Sendable {
    private let waiting = Mutex<[CheckedContinuation<Void, Never>]>([])
    private let started = Mutex<[Duration]>([])

    public init() {}

    /// The clock to inject: `now` stands still, `sleep` holds until ``endAll()``.
    public var clock: MonotonicClock {
        MonotonicClock(
            now: { .zero },
            sleep: { duration in
                await withCheckedContinuation { continuation in
                    self.started.withLock { $0.append(duration) }
                    self.waiting.withLock { $0.append(continuation) }
                }
            })
    }

    /// The durations asked for so far, held or ended.
    public var requested: [Duration] { started.withLock { $0 } }

    /// How many sleeps are held now.
    public var held: Int { waiting.withLock { $0.count } }

    /// Ends every sleep held now.
    public func endAll() {
        for continuation in waiting.withLock({ w in
            defer { w = [] }; return w
        }) { continuation.resume() }
    }
}
