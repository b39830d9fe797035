import HTTPServer
import Readers
import Synchronization

/// A read-only page answers by the upstream timeout even when it needs several calls one after another (each
/// could otherwise use the whole timeout). Writes don't get this: they must finish or fail whole.
struct DeadlineMiddleware: ContextMiddleware {
    let deadline: Duration

    func handle(_ context: RequestContext, next: @escaping ContextHandler) async throws -> Response {
        try await withDeadline(deadline, timeout: { ReadError(.timeout, endpoint: context.request.path) }) {
            try await next(context)
        }
    }
}

/// Runs `work` but answers by `deadline` with `timeout()`'s error. Unlike a task group, it doesn't wait for
/// the work to wind down: a call stuck in I/O may ignore cancellation until its own timeout fires.
func withDeadline<T: Sendable>(
    _ deadline: Duration, timeout: @escaping @Sendable () -> any Error, _ work: @escaping @Sendable () async throws -> T
) async throws -> T {
    let settled = Settled()
    return try await withCheckedThrowingContinuation { continuation in
        let timer = Task {
            try await Task.sleep(for: deadline)
            if settled.claim() { continuation.resume(throwing: timeout()) }
        }
        Task {
            let result = await Result(catching: work)
            timer.cancel()
            if settled.claim() { continuation.resume(with: result) }
        }
    }
}

/// Lets exactly one of two racers resume a continuation.
private final class Settled: Sendable {
    private let done = Atomic<Bool>(false)
    func claim() -> Bool { !done.exchange(true, ordering: .acquiringAndReleasing) }
}

extension Result where Failure == any Error {
    /// The result of async `body`.
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
