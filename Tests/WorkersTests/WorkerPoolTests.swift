import Dispatch
import Testing

@testable import Workers

@Suite struct WorkerPoolTests {
    /// Polls `condition` for up to five seconds.
    func eventually(_ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(2))
        }
        return true
    }

    @Test("the pool runs `workers` jobs, queues `queueLimit` more in order, and refuses the next at once")
    func bounds() async throws {
        let pool = WorkerPool(label: "test", workers: 1, queueLimit: 2)
        let gate = DispatchSemaphore(value: 0)
        var jobs: [Task<Int, any Error>] = []
        for index in 0..<3 {
            jobs.append(
                Task {
                    try await pool.run {
                        gate.wait(); return index
                    }
                })
            // Each starts once the previous holds its place, so the order is known.
            #expect(try await eventually { pool.load.running + pool.load.waiting == index + 1 })
        }
        await #expect(throws: WorkerPool.Busy.self) { try await pool.run { -1 } }
        for _ in jobs { gate.signal() }
        var results: [Int] = []
        for job in jobs { results.append(try await job.value) }
        #expect(results == [0, 1, 2])
        #expect(pool.load == (running: 0, waiting: 0), "every worker is given back")
    }

    @Test("mandatory housekeeping waits its turn but is never refused, even when the queue is full")
    func mandatoryIsNeverRefused() async throws {
        let pool = WorkerPool(label: "test", workers: 1, queueLimit: 0)
        let gate = DispatchSemaphore(value: 0)
        let holder = Task {
            try await pool.run {
                gate.wait(); return 1
            }
        }
        #expect(try await eventually { pool.load.running == 1 })
        await #expect(throws: WorkerPool.Busy.self) { try await pool.run { 2 } }
        let chore = Task { try await pool.run(mandatory: true) { 3 } }
        gate.signal()
        #expect(try await holder.value == 1)
        #expect(try await chore.value == 3)
    }

    @Test("work runs on the pool's own threads, never on the task that asks for it; its errors come through")
    func runsOnItsOwnThreads() async throws {
        let pool = WorkerPool(label: "test", workers: 2, queueLimit: 1)
        #expect(try await pool.run { pool.isOnWorker })
        #expect(!pool.isOnWorker)
        struct Failure: Error {}
        await #expect(throws: Failure.self) { try await pool.run { throw Failure() } }
    }
}
