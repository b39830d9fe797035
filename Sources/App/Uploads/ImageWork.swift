import Dispatch
import Foundation
import Synchronization

/// Image processing off the Swift cooperative pool, with bounds: at most `limit` photos are processed at
/// once (one per core: the work is all CPU), at most `queueLimit` more wait for a worker, and past that the
/// upload is refused with ``Busy`` (the form answers 503 with Retry-After) instead of queueing without end.
/// Waiting uploads hold no thread: they are closures in a list until a worker finishes.
///
/// Each worker is a serial queue of its own. On Linux a concurrent queue would run on the same few threads of
/// the global pool as every Swift task, so processing photos on both cores would stall every page view until
/// the photos were done (measured: a profile page took a second during ten uploads); a serial queue gets a
/// thread of its own.
final class ImageWork: Sendable {
    /// The pool and its queue are full.
    struct Busy: Error {}

    let limit: Int
    let queueLimit: Int
    private let workers: [DispatchQueue]

    private struct State {
        var idleWorkers: [Int]
        var waiting: [@Sendable (Int) -> Void] = []
    }
    private let state: Mutex<State>

    private enum Admission {
        case start(worker: Int)
        case queued
        case refused
    }

    /// - Parameters:
    ///   - limit: photos processed at once.
    ///   - queueLimit: photos allowed to wait for a worker.
    init(limit: Int = ImageWork.defaultLimit, queueLimit: Int = 16) {
        self.limit = max(1, limit)
        self.queueLimit = max(0, queueLimit)
        workers = (0..<self.limit).map { DispatchQueue(label: "grain-stories.images.\($0)") }
        state = Mutex(State(idleWorkers: Array((0..<self.limit).reversed())))
    }

    static let defaultLimit = max(1, ProcessInfo.processInfo.activeProcessorCount)

    /// Runs `work` on a worker, waiting for one if all are busy.
    /// - Throws: ``Busy`` at once when `limit` photos are running and `queueLimit` are waiting; else what `work` throws.
    func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let job: @Sendable (Int) -> Void = { [self] worker in
                let result = Result { try work() }
                // The slot is given back before the caller resumes, so whoever sees the result sees it free.
                finished(worker)
                continuation.resume(with: result)
            }
            let admission: Admission = state.withLock { state in
                if let worker = state.idleWorkers.popLast() { return .start(worker: worker) }
                guard state.waiting.count < queueLimit else { return .refused }
                state.waiting.append(job)
                return .queued
            }
            switch admission {
            case .start(let worker): workers[worker].async { job(worker) }
            case .queued: break
            case .refused: continuation.resume(throwing: Busy())
            }
        }
    }

    /// Photos being processed and photos waiting, for tests and diagnostics.
    var load: (running: Int, waiting: Int) {
        state.withLock { (limit - $0.idleWorkers.count, $0.waiting.count) }
    }

    /// Hands the worker to the longest-waiting photo, or marks it idle.
    private func finished(_ worker: Int) {
        let next: (@Sendable (Int) -> Void)? = state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.idleWorkers.append(worker)
                return nil
            }
            return state.waiting.removeFirst()
        }
        if let next { workers[worker].async { next(worker) } }
    }
}
