import Crypto
import Foundation

/// Deterministic DAG-CBOR encoding of atproto data, used to give records real CIDs.
///
/// Maps are written with keys ordered by length, then bytewise, as DAG-CBOR requires; `{"$link": cid}`
/// becomes tag 42 and `{"$bytes": base64}` a byte string, as the atproto data model maps them.
public enum DAGCBOR {
    public struct EncodingError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public static func encode(_ value: JSONValue) throws(EncodingError) -> [UInt8] {
        var out: [UInt8] = []
        try write(value, into: &out)
        return out
    }

    /// The CID a record gets: sha-256 over its DAG-CBOR bytes.
    public static func cid(of record: JSONValue) throws(EncodingError) -> CID {
        CID(hashing: try encode(record), codec: .dagCBOR)
    }

    private static func write(_ value: JSONValue, into out: inout [UInt8]) throws(EncodingError) {
        switch value {
        case .null: out.append(0xF6)
        case .bool(let b): out.append(b ? 0xF5 : 0xF4)
        case .integer(let i):
            if i >= 0 { head(0, UInt64(i), &out) } else { head(1, UInt64(-(i + 1)), &out) }
        case .number:
            throw EncodingError(description: "floating-point numbers are not allowed in atproto records")
        case .string(let s):
            head(3, UInt64(s.utf8.count), &out)
            out.append(contentsOf: s.utf8)
        case .array(let items):
            head(4, UInt64(items.count), &out)
            for item in items { try write(item, into: &out) }
        case .object(let map):
            if map.count == 1, let link = map["$link"]?.stringValue {
                guard let cid = try? CID(link) else { throw EncodingError(description: "bad $link \(link)") }
                head(6, 42, &out)
                // Tag 42 holds the CID's binary form behind the identity multibase prefix 0x00.
                let bytes = [0x00] + cid.bytes
                head(2, UInt64(bytes.count), &out)
                out.append(contentsOf: bytes)
                return
            }
            if map.count == 1, let b64 = map["$bytes"]?.stringValue {
                guard
                    let bytes = Base64URL.decode(
                        b64.replacingOccurrences(of: "+", with: "-")
                            .replacingOccurrences(of: "/", with: "_"))
                else { throw EncodingError(description: "bad $bytes") }
                head(2, UInt64(bytes.count), &out)
                out.append(contentsOf: bytes)
                return
            }
            let keys = map.keys.sorted { a, b in
                let (ua, ub) = (Array(a.utf8), Array(b.utf8))
                return ua.count != ub.count ? ua.count < ub.count : ua.lexicographicallyPrecedes(ub)
            }
            head(5, UInt64(keys.count), &out)
            for key in keys {
                head(3, UInt64(key.utf8.count), &out)
                out.append(contentsOf: key.utf8)
                try write(map[key]!, into: &out)
            }
        }
    }

    private static func head(_ major: UInt8, _ value: UInt64, _ out: inout [UInt8]) {
        let m = major << 5
        switch value {
        case 0..<24: out.append(m | UInt8(value))
        case 24..<0x100: out.append(contentsOf: [m | 24, UInt8(value)])
        case 0x100..<0x10000: out.append(contentsOf: [m | 25, UInt8(value >> 8), UInt8(value & 0xFF)])
        case 0x10000..<0x1_0000_0000:
            out.append(m | 26)
            for shift in stride(from: 24, through: 0, by: -8) { out.append(UInt8((value >> UInt64(shift)) & 0xFF)) }
        default:
            out.append(m | 27)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8((value >> UInt64(shift)) & 0xFF)) }
        }
    }
}
