import Dispatch
import Testing

@testable import Backend

/// Blob stores run one at a time off the cooperative pool, and refuse at once when too many are pending.
struct BlobQueueTests {
    @Test("stores wait their turn on the queue, and past the limit a store is refused at once")
    func oneAtATimeAndBounded() async throws {
        // setup
        let queue = BlobQueue(limit: 2)
        let gate = DispatchSemaphore(value: 0)
        let deadline = ContinuousClock.now + .seconds(5)
        func settle(at count: Int) async throws {
            while queue.pendingCount < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
            try #require(queue.pendingCount == count)
        }
        // The second starts only once the first holds the queue: started together, the second could run and
        // finish first, and the queue would never hold two.
        let first = Task {
            try await queue.run {
                gate.wait(); return 1
            }
        }
        try await settle(at: 1)
        let second = Task { try await queue.run { 2 } }
        try await settle(at: 2)

        // act
        var refused = false
        do { _ = try await queue.run { 3 } } catch is BlobQueue.Full { refused = true }
        gate.signal()

        // validate
        #expect(refused)
        #expect(try await first.value == 1)
        #expect(try await second.value == 2)
        #expect(try await queue.run { 4 } == 4, "the queue takes work again once it drains")
    }
}
