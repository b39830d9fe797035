public import ATProto
public import Clocks
import Synchronization

/// A clock tests move by hand, shared by every test target: time-based code takes a `() -> UTCTime` and tests
/// pass `{ clock.now }`; what measures lifetimes takes a `MonotonicClock` and tests pass `clock.monotonic`, which
/// moves with it (its sleeps move the clock instead of waiting).
public final class TestClock: Sendable {
    private let current: Mutex<UTCTime>
    private let start: UTCTime

    public init(_ start: UTCTime = .now) {
        current = Mutex(start)
        self.start = start
    }

    /// The same clock as a monotonic one: its distance from where the test clock started.
    public var monotonic: MonotonicClock {
        MonotonicClock(
            now: { .microseconds(self.now.microseconds - self.start.microseconds) },
            sleep: { self.advance(seconds: Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18) })
    }

    public var now: UTCTime { current.withLock { $0 } }

    /// The current time in Unix seconds.
    public var unixSeconds: Int64 { now.unixSeconds }

    public func advance(hours: Double) { advance(seconds: hours * 3600) }

    public func advance(seconds: Double) { current.withLock { $0 = $0.adding(seconds: seconds) } }

    public func set(_ time: UTCTime) { current.withLock { $0 = time } }
}

extension UTCTime {
    /// The fixed instant module tests start their clocks at, so their expectations can name times.
    public static let fixture = UTCTime(microseconds: 1_787_140_800_000_000)
}
