/// A value a template can read: the whole render context is one of these.
///
/// Build it with literals (`["title": "Home", "stories": []]`) or from any `Encodable` page model with
/// ``init(encoding:)``.
public enum TemplateValue: Sendable, Equatable {
    /// Missing or nil; prints as nothing.
    case null
    /// Prints `true` or `false`.
    case bool(Bool)
    /// Prints in decimal, without grouping.
    case int(Int)
    /// Prints with at most six decimals and no trailing zeros (`2.5`, `3.141593`, `2`).
    case double(Double)
    /// Untrusted text, escaped for the context it appears in.
    case string(String)
    /// Trusted markup: raw in text context, escaped everywhere else.
    case safe(SafeHTML)
    /// Iterated by `each`; cannot be printed.
    case array([TemplateValue])
    /// A scope for name lookup (`with`, `each` items, the root context); cannot be printed.
    case dictionary([String: TemplateValue])
}

extension TemplateValue: ExpressibleByNilLiteral {
    /// `nil` is `.null`.
    public init(nilLiteral: ()) { self = .null }
}

extension TemplateValue: ExpressibleByStringLiteral {
    /// A string literal is untrusted text, `.string`.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension TemplateValue: ExpressibleByIntegerLiteral {
    /// An integer literal is `.int`.
    public init(integerLiteral value: Int) { self = .int(value) }
}

extension TemplateValue: ExpressibleByFloatLiteral {
    /// A floating-point literal is `.double`.
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension TemplateValue: ExpressibleByBooleanLiteral {
    /// `true` and `false` are `.bool`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension TemplateValue: ExpressibleByArrayLiteral {
    /// An array literal is `.array`.
    public init(arrayLiteral elements: TemplateValue...) { self = .array(elements) }
}

extension TemplateValue: ExpressibleByDictionaryLiteral {
    /// A repeated key keeps its last value, like a JSON object.
    public init(dictionaryLiteral elements: (String, TemplateValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension TemplateValue {
    /// How `if`, `unless`, `with` and an empty `each` judge a value: nil/missing, false, 0, "", an empty array
    /// and an empty dictionary are false; everything else is true.
    public var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .int(let value): value != 0
        case .double(let value): value != 0
        case .string(let value): !value.isEmpty
        case .safe(let value): !value.html.isEmpty
        case .array(let value): !value.isEmpty
        case .dictionary(let value): !value.isEmpty
        }
    }

    /// One step of a dotted path: a dictionary key, or a decimal index into an array.
    func member(_ segment: PathSegment) -> TemplateValue {
        switch self {
        case .dictionary(let entries):
            return entries[segment.key] ?? .null
        case .array(let items):
            guard let index = segment.index, items.indices.contains(index) else { return .null }
            return items[index]
        default:
            return .null
        }
    }
}
