/// A bounded least-recently-used map: at most `capacity` entries and at most `maximumCost` of cost (bytes, say),
/// the least recently used going first when either is passed. Nodes live in one array linked by index, so a hit, an
/// insertion, a removal or an eviction is O(1) with no per-entry allocation.
///
/// A value type with no clock and no lock: ``Cache`` wraps it with both. An entry whose cost alone passes
/// `maximumCost` is not kept.
public struct LRUCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Node: Sendable {
        var key: Key
        var value: Value
        var cost: Int
        var newer: Int?
        var older: Int?
    }

    public let capacity: Int
    public let maximumCost: Int
    /// The cost of the entries held.
    public private(set) var totalCost = 0
    private var slots: [Key: Int] = [:]
    private var nodes: [Node] = []
    private var newest: Int?
    private var oldest: Int?

    public init(capacity: Int, maximumCost: Int = .max) {
        self.capacity = max(0, capacity)
        self.maximumCost = max(0, maximumCost)
    }

    public var count: Int { slots.count }

    /// The value for `key`, which becomes the most recently used.
    public mutating func value(for key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        unlink(slot)
        pushNewest(slot)
        return nodes[slot].value
    }

    /// The value for `key`, leaving the order as it is.
    public func peek(_ key: Key) -> Value? {
        slots[key].map { nodes[$0].value }
    }

    /// Changes the value for `key` in place, leaving the order as it is; nil when there is none.
    @discardableResult
    public mutating func modify<Result>(_ key: Key, _ body: (inout Value) throws -> Result) rethrows -> Result? {
        guard let slot = slots[key] else { return nil }
        return try body(&nodes[slot].value)
    }

    /// Stores `value` as the most recently used, then evicts the least recently used entries while more than
    /// `capacity` are held or their cost passes `maximumCost`.
    public mutating func insert(_ value: Value, for key: Key, cost: Int = 1) {
        let cost = max(0, cost)
        guard capacity > 0, cost <= maximumCost else {
            removeValue(for: key)
            return
        }
        if let slot = slots[key] {
            totalCost += cost - nodes[slot].cost
            nodes[slot].value = value
            nodes[slot].cost = cost
            unlink(slot)
            pushNewest(slot)
        } else {
            let slot = nodes.count
            nodes.append(Node(key: key, value: value, cost: cost))
            slots[key] = slot
            totalCost += cost
            pushNewest(slot)
        }
        while nodes.count > capacity || totalCost > maximumCost, let oldest {
            remove(slot: oldest)
        }
    }

    /// Removes the entry for `key`, returning its value.
    @discardableResult
    public mutating func removeValue(for key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        let value = nodes[slot].value
        remove(slot: slot)
        return value
    }

    /// Removes the entries `shouldRemove` picks, keeping the order of the others.
    public mutating func removeAll(where shouldRemove: (Key, Value) throws -> Bool) rethrows {
        var kept: [(Key, Value, Int)] = []
        var slot = oldest
        while let current = slot {
            let node = nodes[current]
            if try !shouldRemove(node.key, node.value) { kept.append((node.key, node.value, node.cost)) }
            slot = node.newer
        }
        guard kept.count < count else { return }
        removeAll()
        for (key, value, cost) in kept { insert(value, for: key, cost: cost) }
    }

    public mutating func removeAll() {
        slots.removeAll()
        nodes.removeAll()
        newest = nil
        oldest = nil
        totalCost = 0
    }

    /// The keys from the least to the most recently used.
    public var keysByAge: [Key] {
        var keys: [Key] = []
        var slot = oldest
        while let current = slot {
            keys.append(nodes[current].key)
            slot = nodes[current].newer
        }
        return keys
    }

    /// Unlinks the node at `slot` and fills its place with the last node, so the array stays dense.
    private mutating func remove(slot: Int) {
        unlink(slot)
        slots[nodes[slot].key] = nil
        totalCost -= nodes[slot].cost
        let last = nodes.count - 1
        if slot != last {
            nodes[slot] = nodes[last]
            slots[nodes[slot].key] = slot
            if let newer = nodes[slot].newer { nodes[newer].older = slot } else { newest = slot }
            if let older = nodes[slot].older { nodes[older].newer = slot } else { oldest = slot }
        }
        nodes.removeLast()
    }

    private mutating func unlink(_ slot: Int) {
        let (newer, older) = (nodes[slot].newer, nodes[slot].older)
        if let newer { nodes[newer].older = older } else { newest = older }
        if let older { nodes[older].newer = newer } else { oldest = newer }
        nodes[slot].newer = nil
        nodes[slot].older = nil
    }

    private mutating func pushNewest(_ slot: Int) {
        nodes[slot].older = newest
        if let newest { nodes[newest].newer = slot }
        newest = slot
        if oldest == nil { oldest = slot }
    }
}
