import Dispatch
import Synchronization

/// CPU-heavy or blocking work (image processing, password hashing, blob writes) off Swift's cooperative pool,
/// with bounds: at most `workers` jobs run at once, each worker a serial queue of its own (on Linux a serial queue
/// gets a thread of its own, while concurrent queues share the few threads every Swift task runs on), at most
/// `queueLimit` more wait, and past that a caller is refused with ``Busy`` (the server answers 503 with
/// Retry-After) instead of queueing without end. Waiting jobs hold no thread: they are closures in a list until a
/// worker is free.
///
/// Measured on 2 cores: photos processed on the shared pool froze every page view until they were done (a profile
/// page took a second during ten uploads); on this pool the same page took 11-60 ms.
public final class WorkerPool: Sendable {
    /// Every worker is busy and the queue is full.
    public struct Busy: Error, Sendable {}

    public let workers: Int
    public let queueLimit: Int
    private let queues: [DispatchQueue]
    private let key = DispatchSpecificKey<Int>()

    private struct State {
        var idle: [Int]
        var waiting: [@Sendable (Int) -> Void] = []
    }
    private let state: Mutex<State>

    private enum Admission {
        case start(worker: Int)
        case queued
        case refused
    }

    /// - Parameters:
    ///   - label: names the workers' threads (`grain-stories.<label>.<n>`).
    ///   - workers: jobs run at once.
    ///   - queueLimit: jobs allowed to wait for a worker.
    public init(label: String, workers: Int, queueLimit: Int) {
        self.workers = max(1, workers)
        self.queueLimit = max(0, queueLimit)
        let key = self.key
        queues = (0..<self.workers).map { index in
            let queue = DispatchQueue(label: "grain-stories.\(label).\(index)")
            queue.setSpecific(key: key, value: index)
            return queue
        }
        state = Mutex(State(idle: Array((0..<self.workers).reversed())))
    }

    /// Runs `work` on a worker, waiting for one if all are busy.
    /// - Parameter mandatory: housekeeping that must not be refused when callers fill the queue (removing files);
    ///   it still waits its turn.
    /// - Throws: ``Busy`` at once when every worker is busy and `queueLimit` jobs wait; else what `work` throws.
    public func run<T: Sendable>(mandatory: Bool = false, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let job: @Sendable (Int) -> Void = { [self] worker in
                let result = Result { try work() }
                // The worker is handed on before the caller resumes, so whoever sees the result sees it free.
                finished(worker)
                continuation.resume(with: result)
            }
            let admission: Admission = state.withLock { state in
                if let worker = state.idle.popLast() { return .start(worker: worker) }
                guard mandatory || state.waiting.count < queueLimit else { return .refused }
                state.waiting.append(job)
                return .queued
            }
            switch admission {
            case .start(let worker): queues[worker].async { job(worker) }
            case .queued: break
            case .refused: continuation.resume(throwing: Busy())
            }
        }
    }

    /// Jobs running and jobs waiting, for tests and diagnostics.
    public var load: (running: Int, waiting: Int) {
        state.withLock { (workers - $0.idle.count, $0.waiting.count) }
    }

    /// Whether the calling code runs on one of this pool's workers.
    public var isOnWorker: Bool {
        DispatchQueue.getSpecific(key: key) != nil
    }

    /// Hands the worker to the longest-waiting job, or marks it idle.
    private func finished(_ worker: Int) {
        let next: (@Sendable (Int) -> Void)? = state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.idle.append(worker)
                return nil
            }
            return state.waiting.removeFirst()
        }
        if let next { queues[worker].async { next(worker) } }
    }
}
