public import ATProto
import Synchronization

/// A clock tests move by hand, shared by every test target: time-based code takes a `() -> UTCTime` and tests
/// pass `{ clock.now }`.
public final class TestClock: Sendable {
    private let current: Mutex<UTCTime>

    public init(_ start: UTCTime = .now) { current = Mutex(start) }

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
