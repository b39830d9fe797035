/// A bounded least-recently-used map. Nodes live in one array linked by index, so a hit or an eviction is O(1)
/// with no per-entry allocation.
public struct LRUCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Node: Sendable {
        var key: Key
        var value: Value
        var newer: Int?
        var older: Int?
    }

    public let capacity: Int
    private var slots: [Key: Int] = [:]
    private var nodes: [Node] = []
    private var newest: Int?
    private var oldest: Int?

    public init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    public var count: Int { slots.count }

    /// The value for `key`, which becomes the most recently used.
    public mutating func value(for key: Key) -> Value? {
        guard let slot = slots[key] else { return nil }
        unlink(slot)
        pushNewest(slot)
        return nodes[slot].value
    }

    /// Stores `value` as the most recently used, evicting the least recently used entry when full.
    public mutating func insert(_ value: Value, for key: Key) {
        guard capacity > 0 else { return }
        if let slot = slots[key] {
            nodes[slot].value = value
            unlink(slot)
            pushNewest(slot)
            return
        }
        let slot: Int
        if nodes.count < capacity {
            slot = nodes.count
            nodes.append(Node(key: key, value: value))
        } else {
            slot = oldest!
            unlink(slot)
            slots[nodes[slot].key] = nil
            nodes[slot] = Node(key: key, value: value)
        }
        slots[key] = slot
        pushNewest(slot)
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
