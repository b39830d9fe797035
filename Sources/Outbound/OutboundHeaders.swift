/// HTTP header fields in order, looked up case-insensitively (HTTP/2 servers send lowercase names).
public struct OutboundHeaders: Sendable, Equatable, ExpressibleByDictionaryLiteral, Sequence {
    /// One `Name: value` line.
    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String

        /// A field as given; `OutboundHTTP.send` refuses names that are not HTTP tokens and values with line breaks.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Every field, in order.
    public private(set) var fields: [Field] = []

    /// No fields.
    public init() {}

    /// `["Accept": "application/json"]`, in the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value named `name` (any case); setting replaces every field of that name, nil removes them.
    public subscript(name: String) -> String? {
        get { fields.first { Self.same($0.name, name) }?.value }
        set {
            fields.removeAll { Self.same($0.name, name) }
            if let newValue { fields.append(Field(name: name, value: newValue)) }
        }
    }

    /// Every value named `name`, in order (`Set-Cookie`, repeated `WWW-Authenticate`).
    public func values(named name: String) -> [String] {
        fields.filter { Self.same($0.name, name) }.map(\.value)
    }

    /// Adds a field, keeping any others of the same name.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Iterates `fields` in order.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    mutating func appendToLast(_ continuation: String) {
        guard !fields.isEmpty else { return }
        fields[fields.count - 1].value += " " + continuation
    }

    private static func same(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.lowercased() == b.lowercased()
    }
}
