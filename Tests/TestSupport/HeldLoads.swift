public import Synchronization

/// Loads that count themselves and hold until the test opens them, so concurrent callers can pile up behind one:
/// what the single-flight tests of a cache need.
public final class HeldLoads: Sendable {
    /// The keys loaded, in order.
    public let started = Mutex<[String]>([])
    /// Set to let every held load answer.
    public let open = Mutex(false)

    public init() {}

    /// A load of `key` that answers `answer` (or throws ``Failure``) once the test opens the loads.
    public func load(_ key: String, answer: Int, failing: Bool = false) -> @Sendable () async throws -> Int {
        { [self] in
            started.withLock { $0.append(key) }
            while !open.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
            if failing { throw Failure() }
            return answer
        }
    }

    /// How many loads of `key` have started.
    public func count(_ key: String) -> Int { started.withLock { $0.filter { $0 == key }.count } }

    /// What a failing load throws.
    public struct Failure: Error {}
}

/// Waits until `condition` holds, or `limit` has passed: the caller's expectations then fail. The default is long
/// because it costs nothing when the condition comes true, and a test job running beside others can keep a task from
/// its thread for seconds.
public func waitUntil(_ limit: Duration = .seconds(20), _ condition: () -> Bool) async throws {
    let end = ContinuousClock.now + limit
    while !condition() && ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(5)) }
}
