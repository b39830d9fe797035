import Synchronization
import Testing

@testable import Video

@Suite struct ProcessingGateTests {
    /// Jobs beyond the slots wait their turn in order; one more than the queue holds is refused.
    @Test func queuesInOrderAndRefusesBeyondTheQueue() async throws {
        let gate = ProcessingGate(slots: 1, waiting: 2)
        let order = Seen()
        let (release, releaser) = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            try await gate.withSlot { () async throws(VideoError) in
                for await _ in release { break }
            }
        }
        while gate.load.running == 0 { try await Task.sleep(for: .milliseconds(5)) }
        var waiters: [Task<Void, any Error>] = []
        for index in 1...2 {
            waiters.append(Task { try await gate.withSlot { () async throws(VideoError) in order.add(Double(index)) } })
            while gate.load.queued < index { try await Task.sleep(for: .milliseconds(5)) }
        }
        await #expect(throws: VideoError(.busy, "Another clip is being processed right now; try again in a few seconds.")) {
            try await gate.withSlot { () async throws(VideoError) in }
        }
        releaser.yield()
        try await holder.value
        for waiter in waiters { try await waiter.value }
        #expect(order.values == [1, 2])
        #expect(gate.load == (0, 0))
    }

    /// A cancelled waiter leaves the queue and its place is free again.
    @Test func cancelledWaiterLeavesTheQueue() async throws {
        let gate = ProcessingGate(slots: 1, waiting: 1)
        let (release, releaser) = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            try await gate.withSlot { () async throws(VideoError) in
                for await _ in release { break }
            }
        }
        while gate.load.running == 0 { try await Task.sleep(for: .milliseconds(5)) }
        let waiter = Task { try await gate.withSlot { () async throws(VideoError) in } }
        while gate.load.queued == 0 { try await Task.sleep(for: .milliseconds(5)) }
        waiter.cancel()
        await #expect(throws: VideoError.self) { try await waiter.value }
        #expect(gate.load.queued == 0)
        releaser.yield()
        try await holder.value
        #expect(gate.load == (0, 0))
    }
}
