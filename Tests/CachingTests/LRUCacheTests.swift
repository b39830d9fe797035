import TestSupport
import Testing

@testable import Caching

/// The value type under ``Cache``: eviction order, the count and cost bounds, removal. (These three moved here from
/// PlacesTests with the type.)
struct LRUCacheTests {
    @Test("the least recently used entry is evicted first, and a read counts as a use")
    func eviction() {
        var cache = LRUCache<Int, String>(capacity: 2)

        cache.insert("one", for: 1)
        cache.insert("two", for: 2)
        _ = cache.value(for: 1)
        cache.insert("three", for: 3)

        #expect(cache.value(for: 2) == nil)
        #expect(cache.value(for: 1) == "one")
        #expect(cache.value(for: 3) == "three")
        #expect(cache.count == 2)
    }

    @Test("re-inserting a key replaces its value without growing; capacity 0 stores nothing")
    func replaceAndZero() {
        var cache = LRUCache<Int, String>(capacity: 3)
        var none = LRUCache<Int, String>(capacity: 0)

        cache.insert("a", for: 1)
        cache.insert("b", for: 1)
        none.insert("x", for: 1)

        #expect(cache.value(for: 1) == "b")
        #expect(cache.count == 1)
        #expect(none.value(for: 1) == nil)
    }

    @Test("a long random workload matches a simple reference model")
    func matchesModel() {
        var cache = LRUCache<Int, Int>(capacity: 8)
        var model: [(key: Int, value: Int)] = []  // most recent last
        var random = SeededGenerator(seed: 7)

        var mismatches = 0
        for step in 0..<5_000 {
            let key = Int.random(in: 0..<20, using: &random)
            if Bool.random(using: &random) {
                let expected = model.firstIndex { $0.key == key }.map { model.remove(at: $0) }
                if let expected { model.append(expected) }
                if cache.value(for: key) != expected?.value { mismatches += 1 }
            } else {
                model.removeAll { $0.key == key }
                model.append((key, step))
                if model.count > 8 { model.removeFirst() }
                cache.insert(step, for: key)
            }
        }

        #expect(mismatches == 0)
    }

    @Test("past the cost bound the least recently used go until the rest fit; an entry too dear alone is not kept")
    func costBound() {
        var cache = LRUCache<String, [UInt8]>(capacity: 100, maximumCost: 10)

        cache.insert([], for: "a", cost: 4)
        cache.insert([], for: "b", cost: 4)
        _ = cache.value(for: "a")
        cache.insert([], for: "c", cost: 4)

        #expect(cache.keysByAge == ["a", "c"], "b, the least recently used, went")
        #expect(cache.totalCost == 8)
        cache.insert([], for: "c", cost: 9)
        #expect(cache.keysByAge == ["c"] && cache.totalCost == 9, "growing an entry evicts others, never itself")
        cache.insert([], for: "huge", cost: 11)
        #expect(cache.peek("huge") == nil && cache.keysByAge == ["c"])
        cache.insert([], for: "c", cost: 11)
        #expect(cache.count == 0 && cache.totalCost == 0, "a kept entry replaced by one too dear is gone")
    }

    @Test("removal keeps the others in order; peek and modify leave the order alone")
    func removal() {
        var cache = LRUCache<Int, String>(capacity: 5)
        for key in 1...5 { cache.insert("\(key)", for: key) }

        #expect(cache.removeValue(for: 2) == "2")
        #expect(cache.removeValue(for: 2) == nil)
        #expect(cache.peek(1) == "1")
        #expect(
            cache.modify(3) { value -> Int in
                value = "three"
                return 3
            } == 3)
        #expect(cache.modify(9) { _ in 9 } == nil)
        #expect(cache.keysByAge == [1, 3, 4, 5])
        cache.removeAll { key, _ in key.isMultiple(of: 2) }
        #expect(cache.keysByAge == [1, 3, 5] && cache.value(for: 3) == "three")
        cache.insert("6", for: 6)
        cache.insert("7", for: 7)
        cache.insert("8", for: 8)
        #expect(cache.keysByAge == [5, 3, 6, 7, 8], "1 was the least recently used")
        cache.removeAll()
        #expect(cache.count == 0 && cache.keysByAge.isEmpty && cache.totalCost == 0)
    }

    @Test("removals mixed with a random workload still match the reference model")
    func removalsMatchModel() {
        var cache = LRUCache<Int, Int>(capacity: 6, maximumCost: 20)
        var model: [(key: Int, value: Int, cost: Int)] = []  // most recent last
        var random = SeededGenerator(seed: 11)

        var mismatches = 0
        for step in 0..<5_000 {
            let key = Int.random(in: 0..<12, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                let expected = model.firstIndex { $0.key == key }.map { model.remove(at: $0) }
                if let expected { model.append(expected) }
                if cache.value(for: key) != expected?.value { mismatches += 1 }
            case 1:
                let cost = Int.random(in: 0...8, using: &random)
                model.removeAll { $0.key == key }
                model.append((key, step, cost))
                while model.count > 6 || model.reduce(0, { $0 + $1.cost }) > 20 { model.removeFirst() }
                cache.insert(step, for: key, cost: cost)
            default:
                let expected = model.firstIndex { $0.key == key }.map { model.remove(at: $0) }
                if cache.removeValue(for: key) != expected?.value { mismatches += 1 }
            }
            if cache.keysByAge != model.map(\.key) || cache.totalCost != model.reduce(0, { $0 + $1.cost }) { mismatches += 1 }
        }

        #expect(mismatches == 0)
    }
}
