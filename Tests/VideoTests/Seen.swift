import Synchronization

/// Values a callback saw, from whatever thread.
final class Seen: Sendable {
    private let storage = Mutex<[Double]>([])
    func add(_ value: Double) { storage.withLock { $0.append(value) } }
    var values: [Double] { storage.withLock { $0 } }
}
