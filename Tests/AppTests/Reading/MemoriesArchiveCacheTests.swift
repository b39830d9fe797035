import Synchronization
import TestSupport
import Testing

@testable import App

/// The cache of archives read for "On this day" against a remote hatk: one read per key however many requests miss
/// it together, and the least recently used entry evicted when full.
@Suite struct MemoriesArchiveCacheTests {
    @Test("eight requests missing the same archive at once share one read, and each gets its answer")
    func concurrentMissesShareOneRead() async throws {
        let cache = MemoriesArchiveCache<Int>(capacity: 16, lifetime: 3600)
        let reads = HeldLoads()
        let answers = Task {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 { group.addTask { try await cache.value(for: "kim maya", now: 100, load: reads.load("kim maya", answer: 7)) } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
        }
        try await waitUntil { reads.count("kim maya") >= 1 }
        // The other seven have had time to miss; without sharing, each would be reading by now.
        try await Task.sleep(for: .milliseconds(200))
        reads.open.withLock { $0 = true }
        #expect(try await answers.value == Array(repeating: 7, count: 8))
        #expect(reads.count("kim maya") == 1, "one read for eight requests")
        // A different key is read for itself.
        #expect(try await cache.value(for: "kim jonas", now: 100, load: reads.load("kim jonas", answer: 3)) == 3)
        #expect(reads.count("kim jonas") == 1)
        // Fresh until its lifetime is over; read again after.
        #expect(try await cache.value(for: "kim maya", now: 3699, load: reads.load("kim maya", answer: 8)) == 7)
        #expect(try await cache.value(for: "kim maya", now: 3700, load: reads.load("kim maya", answer: 8)) == 8)
        #expect(reads.count("kim maya") == 2)
    }

    @Test("a failed read is shared by those waiting on it and not kept: the next request reads again")
    func failuresAreNotKept() async throws {
        let cache = MemoriesArchiveCache<Int>(capacity: 16, lifetime: 3600)
        let reads = HeldLoads()
        let first = Task { try await cache.value(for: "k", now: 0, load: reads.load("k", answer: 1, failing: true)) }
        try await waitUntil { reads.count("k") == 1 }
        let second = Task { try await cache.value(for: "k", now: 0, load: reads.load("k", answer: 2)) }
        try await Task.sleep(for: .milliseconds(100))
        reads.open.withLock { $0 = true }
        await #expect(throws: HeldLoads.Failure.self) { try await first.value }
        await #expect(throws: HeldLoads.Failure.self, "the second request waited on the first one's read") { try await second.value }
        #expect(reads.count("k") == 1)
        #expect(try await cache.value(for: "k", now: 0, load: reads.load("k", answer: 2)) == 2)
        #expect(reads.count("k") == 2 && cache.count == 1)
    }

    @Test("when full, only the least recently used archive goes; the others stay warm")
    func leastRecentlyUsedGoes() async throws {
        let cache = MemoriesArchiveCache<Int>(capacity: 3, lifetime: 3600)
        let reads = HeldLoads()
        reads.open.withLock { $0 = true }
        for (i, key) in ["a", "b", "c"].enumerated() {
            _ = try await cache.value(for: key, now: 0, load: reads.load(key, answer: i))
        }
        _ = try await cache.value(for: "a", now: 0, load: reads.load("a", answer: 0))  // a is used again: b is now the oldest
        _ = try await cache.value(for: "d", now: 0, load: reads.load("d", answer: 3))
        #expect(cache.count == 3)
        for key in ["a", "c", "d"] { _ = try await cache.value(for: key, now: 0, load: reads.load(key, answer: -1)) }
        #expect(["a", "c", "d"].map(reads.count) == [1, 1, 1], "kept, not cleared with the rest")
        #expect(try await cache.value(for: "b", now: 0, load: reads.load("b", answer: 9)) == 9)
        #expect(reads.count("b") == 2, "the least recently used was evicted")
    }
}
