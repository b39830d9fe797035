import Dispatch
import Synchronization

/// Blob stores (decoding for the variants, three fsyncs) off the Swift cooperative pool and one at a time, so a
/// burst of uploads never holds the few threads that every other request needs. Waiting stores hold no thread;
/// past `limit` of them a caller is told to come back later instead of queueing without end.
final class BlobQueue: Sendable {
    /// `limit` stores are already waiting.
    struct Full: Error {}

    let limit: Int
    private let queue = DispatchQueue(label: "grain-stories.blob-writes")
    private let pending = Atomic<Int>(0)

    /// - Parameter limit: stores allowed to wait or run at once.
    init(limit: Int = 32) {
        self.limit = max(1, limit)
    }

    /// Stores waiting or running, for tests and diagnostics.
    var pendingCount: Int { pending.load(ordering: .relaxed) }

    /// Runs `work` on the queue's thread once the stores before it are done.
    /// - Parameter counted: false for housekeeping (removing files) that must not be refused when uploads fill the
    ///   queue; it still waits its turn.
    /// - Throws: ``Full`` at once when `limit` counted stores are pending; else what `work` throws.
    func run<T: Sendable>(counted: Bool = true, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        if counted {
            guard pending.add(1, ordering: .relaxed).newValue <= limit else {
                pending.subtract(1, ordering: .relaxed)
                throw Full()
            }
        }
        defer { if counted { pending.subtract(1, ordering: .relaxed) } }
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }
}
