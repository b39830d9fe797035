import Synchronization
import TestSupport
import Testing

@testable import Caching

/// The shared cache: lifetimes on a time the test moves by hand, one load for concurrent misses, failures not kept,
/// removal and the bounds through the lock.
@Suite struct CacheTests {
    @Test("an entry is fresh until its lifetime is over, then gone; without a lifetime time does not matter")
    func lifetime() {
        let cache = Cache<String, Int>(capacity: 4, lifetime: .seconds(60))
        cache.insert(1, for: "a", now: .seconds(100))
        cache.insert(2, for: "b", now: .seconds(100), expires: .seconds(110))

        #expect(cache.value(for: "a", now: .seconds(159)) == 1)
        #expect(cache.peek("b", now: .seconds(109)) == 2)
        #expect(cache.value(for: "b", now: .seconds(110)) == nil, "an explicit expiry wins over the lifetime")
        #expect(cache.count == 1, "the expired entry was dropped when looked at")
        #expect(cache.peek("a", now: .seconds(160)) == nil)
        #expect(cache.modify("a", now: .seconds(160)) { $0 += 1 } == nil)
        #expect(cache.modify("a", now: .seconds(150)) { $0 += 1 } != nil)
        #expect(cache.value(for: "a", now: .seconds(150)) == 2)
        cache.removeExpired(now: .seconds(1000))
        #expect(cache.count == 0)

        let forever = Cache<String, Int>(capacity: 4)
        forever.insert(1, for: "a")
        #expect(forever.value(for: "a", now: .seconds(1_000_000)) == 1)
    }

    @Test("through the lock: the least recently used goes past the count or the cost, and removal forgets")
    func boundsAndRemoval() {
        let cache = Cache<String, [UInt8]>(capacity: 3, maximumCost: 10, cost: { $0.count })
        cache.insert([1, 2, 3, 4], for: "a")
        cache.insert([1, 2, 3, 4], for: "b")
        _ = cache.value(for: "a")
        cache.insert([1, 2, 3, 4], for: "c")
        #expect(cache.value(for: "b") == nil && cache.totalCost == 8)
        cache.insert([1], for: "d")
        cache.insert([1], for: "e")
        #expect(cache.count == 3 && cache.peek("a") == nil, "a was the least recently used once the count was full")

        cache.removeValue(for: "d")
        #expect(cache.value(for: "d") == nil && cache.count == 2)
        cache.removeAll()
        #expect(cache.count == 0 && cache.totalCost == 0)
    }

    @Test("eight tasks missing the same key at once share one load, and each gets its answer")
    func concurrentMissesShareOneLoad() async throws {
        let cache = Cache<String, Int>(capacity: 16, lifetime: .seconds(3600))
        let loads = HeldLoads()
        let answers = Task {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 { group.addTask { try await cache.value(for: "k", now: .seconds(100), load: loads.load("k", answer: 7)) } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
        }
        try await waitUntil { loads.count("k") >= 1 }
        // The other seven have had time to miss; without sharing, each would be loading by now.
        try await Task.sleep(for: .milliseconds(200))
        loads.open.withLock { $0 = true }
        #expect(try await answers.value == Array(repeating: 7, count: 8))
        #expect(loads.count("k") == 1, "one load for eight misses")
        #expect(try await cache.value(for: "other", now: .seconds(100), load: loads.load("other", answer: 3)) == 3)
        // Kept for its lifetime from the miss, loaded again after.
        #expect(try await cache.value(for: "k", now: .seconds(3699), load: loads.load("k", answer: 8)) == 7)
        #expect(try await cache.value(for: "k", now: .seconds(3700), load: loads.load("k", answer: 8)) == 8)
        #expect(loads.count("k") == 2 && loads.count("other") == 1)
    }

    @Test("a failed load is shared by those waiting on it and not kept: the next miss loads again")
    func failuresAreNotKept() async throws {
        let cache = Cache<String, Int>(capacity: 16)
        let loads = HeldLoads()
        let first = Task { try await cache.value(for: "k", load: loads.load("k", answer: 1, failing: true)) }
        try await waitUntil { loads.count("k") == 1 }
        let second = Task { try await cache.value(for: "k", load: loads.load("k", answer: 2)) }
        try await Task.sleep(for: .milliseconds(100))
        loads.open.withLock { $0 = true }
        await #expect(throws: HeldLoads.Failure.self) { try await first.value }
        await #expect(throws: HeldLoads.Failure.self, "the second miss waited on the first one's load") { try await second.value }
        #expect(loads.count("k") == 1 && cache.count == 0)
        #expect(try await cache.value(for: "k", load: loads.load("k", answer: 2)) == 2)
        #expect(loads.count("k") == 2 && cache.count == 1)
    }

    @Test("a load under way when its key is removed answers its callers but is not kept; the next miss loads anew")
    func removalDuringALoad() async throws {
        let cache = Cache<String, Int>(capacity: 16)
        let loads = HeldLoads()
        let first = Task { try await cache.value(for: "k", load: loads.load("k", answer: 1)) }
        try await waitUntil { loads.count("k") == 1 }
        cache.removeAll()
        let second = Task { try await cache.value(for: "k", load: loads.load("k", answer: 2)) }
        try await waitUntil { loads.count("k") == 2 }
        loads.open.withLock { $0 = true }
        #expect(try await first.value == 1)
        #expect(try await second.value == 2)
        #expect(cache.value(for: "k") == 2, "the load begun after the removal is the one kept")
        #expect(try await cache.value(for: "k", load: loads.load("k", answer: 3)) == 2)
        #expect(loads.count("k") == 2)
    }

    @Test("an answer `keep` refuses is shared but not kept, and an entry `usable` refuses is loaded again")
    func keepAndUsable() async throws {
        let cache = Cache<String, Int>(capacity: 16)
        let loads = HeldLoads()
        loads.open.withLock { $0 = true }
        #expect(try await cache.value(for: "k", keep: { $0 > 0 }, load: loads.load("k", answer: -1)) == -1)
        #expect(cache.count == 0)
        #expect(try await cache.value(for: "k", keep: { $0 > 0 }, load: loads.load("k", answer: 5)) == 5)
        #expect(try await cache.value(for: "k", usable: { $0 > 5 }, load: loads.load("k", answer: 6)) == 6)
        #expect(try await cache.value(for: "k", load: loads.load("k", answer: 7)) == 6)
        #expect(loads.count("k") == 3)
    }
}
