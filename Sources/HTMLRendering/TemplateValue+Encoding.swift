import Foundation

extension TemplateValue {
    /// Converts an `Encodable` page model into a template value.
    ///
    /// The conversion goes straight to ``TemplateValue`` (no JSON round trip), which keeps integers, doubles and
    /// booleans distinct and makes three choices a JSON encoder would not:
    /// - a `nil` optional becomes `.null` instead of a missing key, so `{{ caption }}` inside `each` never falls
    ///   back to an unrelated `caption` of an outer scope;
    /// - a ``SafeHTML`` property becomes `.safe`, recognised by its type, never by the shape of the encoded data;
    /// - `Date` becomes an ISO 8601 string, `URL` its absolute string, `Data` base64.
    /// - Parameter value: the model to convert.
    /// - Throws: whatever the model's own `encode(to:)` throws.
    public init<T: Encodable>(encoding value: T) throws {
        let slot = EncodingSlot()
        try EncodingSlot.encode(value, into: slot, codingPath: [])
        self = slot.resolved()
    }
}

extension TemplateValue: Encodable {
    /// Encodes as the JSON-like equivalent (``SafeHTML`` as its markup string), so page models may hold prebuilt
    /// values; ``init(encoding:)`` takes such a property over unchanged, `.safe` included.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let value): try value.encode(to: encoder)
        case .int(let value): try value.encode(to: encoder)
        case .double(let value): try value.encode(to: encoder)
        case .string(let value): try value.encode(to: encoder)
        case .safe(let value): try value.encode(to: encoder)
        case .array(let value): try value.encode(to: encoder)
        case .dictionary(let value): try value.encode(to: encoder)
        }
    }
}

/// A node of the value being built; encoders write into it, nested containers hold child slots.
/// Primitives are stored in place (`Entry.value`), so only nested containers cost an allocation.
final class EncodingSlot {
    enum Entry {
        case value(TemplateValue)
        case nested(EncodingSlot)

        var resolved: TemplateValue {
            switch self {
            case .value(let value): value
            case .nested(let slot): slot.resolved()
            }
        }
    }

    var value: TemplateValue = .null
    var object: [String: Entry]?
    var array: [Entry]?

    func resolved() -> TemplateValue {
        if let object { return .dictionary(object.mapValues(\.resolved)) }
        if let array { return .array(array.map(\.resolved)) }
        return value
    }

    /// Converts one value: primitives and special types directly, everything else through its `encode(to:)`.
    /// - Parameter codingPath: built only when the value needs an encoder of its own.
    static func entry<T: Encodable>(for value: T, codingPath: () -> [any CodingKey]) throws -> Entry {
        if let primitive = primitive(value) { return .value(primitive) }
        let slot = EncodingSlot()
        try value.encode(to: SlotEncoder(slot: slot, codingPath: codingPath()))
        return .nested(slot)
    }

    static func encode<T: Encodable>(_ value: T, into slot: EncodingSlot, codingPath: [any CodingKey]) throws {
        if let primitive = primitive(value) {
            slot.value = primitive
        } else {
            try value.encode(to: SlotEncoder(slot: slot, codingPath: codingPath))
        }
    }

    /// Recognises primitives and special types by exact type identity, which is much cheaper than dynamic
    /// casts and, for SafeHTML, is the point: only a real `SafeHTML` becomes `.safe`.
    private static func primitive<T>(_ value: T) -> TemplateValue? {
        let type = T.self
        if type == String.self { return .string(value as! String) }
        if type == Int.self { return .int(value as! Int) }
        if type == Bool.self { return .bool(value as! Bool) }
        if type == Double.self { return .double(value as! Double) }
        if type == SafeHTML.self { return .safe(value as! SafeHTML) }
        if type == TemplateValue.self { return value as? TemplateValue }
        if type == Float.self { return .double(Double(value as! Float)) }
        if type == Date.self { return .string((value as! Date).formatted(.iso8601)) }
        if type == URL.self { return .string((value as! URL).absoluteString) }
        if type == Data.self { return .string((value as! Data).base64EncodedString()) }
        if type == Decimal.self { return .double(Double((value as! Decimal).description) ?? 0) }
        if type == Int8.self { return .int(Int(value as! Int8)) }
        if type == Int16.self { return .int(Int(value as! Int16)) }
        if type == Int32.self { return .int(Int(value as! Int32)) }
        if type == Int64.self { return .int(Int(value as! Int64)) }
        if type == UInt8.self { return .int(Int(value as! UInt8)) }
        if type == UInt16.self { return .int(Int(value as! UInt16)) }
        if type == UInt32.self { return .int(Int(value as! UInt32)) }
        if type == UInt.self { return integer(value as! UInt) }
        if type == UInt64.self { return integer(value as! UInt64) }
        return nil
    }

    private static func integer<I: BinaryInteger>(_ value: I) -> TemplateValue {
        Int(exactly: value).map(TemplateValue.int) ?? .double(Double(value))
    }
}

/// The `Encoder` handed to a model's `encode(to:)`.
struct SlotEncoder: Encoder {
    let slot: EncodingSlot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if slot.object == nil { slot.object = [:] }
        return KeyedEncodingContainer(SlotKeyedContainer<Key>(slot: slot, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if slot.array == nil { slot.array = [] }
        return SlotUnkeyedContainer(slot: slot, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SlotSingleValueContainer(slot: slot, codingPath: codingPath)
    }
}

/// The key used for an unkeyed container's elements and for `superEncoder`, as in Foundation's encoders.
struct IndexKey: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue; self.intValue = nil }
    init(intValue: Int) { self.stringValue = String(intValue); self.intValue = intValue }
}
