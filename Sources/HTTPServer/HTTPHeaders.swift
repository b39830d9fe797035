/// Ordered header fields. Names keep their spelling; lookups ignore ASCII case.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    private var fields: [(name: String, value: String)]

    /// No fields.
    public init() {
        fields = []
    }

    /// Fields in literal order: `["Content-Type": "text/plain"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of `name`. Setting replaces every value of `name`; setting `nil` removes them.
    public subscript(name: String) -> String? {
        get { fields.first { Self.same($0.name, name) }?.value }
        set {
            guard let newValue else {
                remove(name)
                return
            }
            if let index = fields.firstIndex(where: { Self.same($0.name, name) }) {
                fields[index].value = newValue
                var later = fields.index(after: index)
                while later < fields.endIndex {
                    if Self.same(fields[later].name, name) {
                        fields.remove(at: later)
                    } else {
                        later = fields.index(after: later)
                    }
                }
            } else {
                fields.append((name: name, value: newValue))
            }
        }
    }

    /// Every value of `name`, in order (for example each `Set-Cookie`).
    public func values(_ name: String) -> [String] {
        fields.filter { Self.same($0.name, name) }.map(\.value)
    }

    /// Appends a field, keeping existing fields of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append((name: name, value: value))
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: String) {
        fields.removeAll { Self.same($0.name, name) }
    }

    /// Whether a field named `name` exists.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.same($0.name, name) }
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    /// One "Name: value" line per field.
    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// Header names are ASCII tokens, so a byte-wise case fold is exact and avoids Unicode case mapping.
    static func same(_ a: String, _ b: String) -> Bool {
        let x = a.utf8
        let y = b.utf8
        guard x.count == y.count else { return false }
        return zip(x, y).allSatisfy { lower($0) == lower($1) }
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        (byte >= 65 && byte <= 90) ? byte + 32 : byte
    }
}
