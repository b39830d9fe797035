import Dispatch
import Foundation
import Synchronization

/// Image processing off the Swift cooperative pool, with a bound: at most `limit` photos are processed
/// at once, and past `queueLimit` waiting uploads the server answers 503 rather than queueing without end.
final class ImageWork: Sendable {
    struct Busy: Error {}

    let limit: Int
    let queueLimit: Int
    private let queue = DispatchQueue(label: "grain-stories.images", attributes: .concurrent)
    private let gate: DispatchSemaphore
    private let waiting = Atomic<Int>(0)

    init(limit: Int = max(1, ProcessInfo.processInfo.activeProcessorCount), queueLimit: Int = 32) {
        self.limit = limit
        self.queueLimit = queueLimit
        gate = DispatchSemaphore(value: limit)
    }

    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        guard waiting.add(1, ordering: .relaxed).newValue <= queueLimit else {
            waiting.subtract(1, ordering: .relaxed)
            throw Busy()
        }
        defer { waiting.subtract(1, ordering: .relaxed) }
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { [gate] in
                gate.wait()
                defer { gate.signal() }
                continuation.resume(with: Result { try work() })
            }
        }
    }
}
