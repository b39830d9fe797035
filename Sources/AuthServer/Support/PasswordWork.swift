import Dispatch
import Synchronization

/// Password hashing off Swift's cooperative pool, with bounds: at most `workers` hashes run at once, each on a
/// serial queue of its own (on Linux a serial queue gets its own thread, while concurrent queues share the few
/// threads every Swift task runs on), at most `queueLimit` more wait, and past that a sign-in is refused with
/// ``Busy`` (503 with Retry-After) instead of queueing without end. Waiting sign-ins hold no thread: they are
/// closures in a list until a worker is free.
///
/// A scrypt hash at today's cost takes 128 MiB and a few hundred milliseconds; run on the shared pool, a handful
/// of concurrent sign-ins would stall every page view for that long. (The front's `ImageWork` is the same
/// mechanism for photos; the two belong in one shared type.)
final class PasswordWork: Sendable {
    /// Every worker is busy and the queue is full.
    struct Busy: Error {}

    let workers: Int
    let queueLimit: Int
    private let queues: [DispatchQueue]
    private static let workerKey = DispatchSpecificKey<Int>()

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
    ///   - workers: hashes run at once.
    ///   - queueLimit: hashes allowed to wait for a worker.
    init(workers: Int, queueLimit: Int) {
        self.workers = max(1, workers)
        self.queueLimit = max(0, queueLimit)
        queues = (0..<self.workers).map { index in
            let queue = DispatchQueue(label: "grain-stories.passwords.\(index)")
            queue.setSpecific(key: Self.workerKey, value: index)
            return queue
        }
        state = Mutex(State(idle: Array((0..<self.workers).reversed())))
    }

    /// Runs `work` on a worker, waiting for one if all are busy.
    /// - Throws: ``Busy`` at once when every worker is busy and `queueLimit` jobs are waiting.
    func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws(Busy) -> T {
        let result: Result<T, Busy> = await withCheckedContinuation { continuation in
            let job: @Sendable (Int) -> Void = { [self] worker in
                let value = work()
                // The worker is handed on before the caller resumes, so whoever sees the result sees it free.
                finished(worker)
                continuation.resume(returning: .success(value))
            }
            let admission: Admission = state.withLock { state in
                if let worker = state.idle.popLast() { return .start(worker: worker) }
                guard state.waiting.count < queueLimit else { return .refused }
                state.waiting.append(job)
                return .queued
            }
            switch admission {
            case .start(let worker): queues[worker].async { job(worker) }
            case .queued: break
            case .refused: continuation.resume(returning: .failure(Busy()))
            }
        }
        return try result.get()
    }

    /// Hashes running and waiting, for tests and diagnostics.
    var load: (running: Int, waiting: Int) {
        state.withLock { (workers - $0.idle.count, $0.waiting.count) }
    }

    /// Whether the calling code runs on one of the workers.
    static var isOnWorker: Bool {
        DispatchQueue.getSpecific(key: workerKey) != nil
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
