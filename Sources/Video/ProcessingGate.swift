import Synchronization

/// At most `slots` jobs at once and `waiting` more in a first-come-first-served queue; one more is refused at once,
/// because a phone that waits minutes for a slot is worse off than one told to try again.
final class ProcessingGate: Sendable {
    let slots: Int
    let waiting: Int

    private enum Admission { case granted, refused, cancelled }
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Admission, Never>
    }
    private struct State {
        var running = 0
        var queue: [Waiter] = []
        var nextID: UInt64 = 0
    }
    private let state = Mutex(State())

    init(slots: Int, waiting: Int) {
        self.slots = max(1, slots)
        self.waiting = max(0, waiting)
    }

    /// Jobs holding a slot now, and jobs queued for one.
    var load: (running: Int, queued: Int) { state.withLock { ($0.running, $0.queue.count) } }

    /// Runs `body` holding a slot, waiting for one if the queue has room.
    func withSlot<T>(_ body: () async throws(VideoError) -> T) async throws(VideoError) -> T {
        switch await admission() {
        case .granted: break
        case .refused: throw VideoError(.busy, "Another clip is being processed right now; try again in a few seconds.")
        case .cancelled: throw VideoError(.busy, "Processing was stopped before this clip's turn came; try again.")
        }
        defer { release() }
        return try await body()
    }

    private func admission() async -> Admission {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let immediate: Admission? = state.withLock { state in
                    // Checked under the lock that the cancellation handler takes, so a cancel is never missed:
                    // either it finds this waiter queued, or this sees the task cancelled.
                    if Task.isCancelled { return .cancelled }
                    if state.running < slots {
                        state.running += 1
                        return .granted
                    }
                    guard state.queue.count < waiting else { return .refused }
                    state.queue.append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.queue.firstIndex(where: { $0.id == id }) else { return nil }
                return state.queue.remove(at: index)
            }
            waiter?.continuation.resume(returning: .cancelled)
        }
    }

    /// Hands the slot to the first in the queue, so a newcomer can never overtake it.
    private func release() {
        let next = state.withLock { state -> Waiter? in
            guard !state.queue.isEmpty else {
                state.running -= 1
                return nil
            }
            return state.queue.removeFirst()
        }
        next?.continuation.resume(returning: .granted)
    }
}
