#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An IPv4 or IPv6 address as numbers, so that ranges are plain prefix comparisons.
public enum IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// An IPv4 address, most significant byte first (`127.0.0.1` is `0x7f00_0001`).
    case v4(UInt32)
    /// An IPv6 address, most significant byte first.
    case v6(UInt128)

    /// Parses dotted-quad IPv4 or any IPv6 text form (`::1`, `::ffff:10.0.0.1`); nil for anything else,
    /// including host names and zone suffixes.
    public init?(_ text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self = withUnsafeBytes(of: &v4) { IPAddress(bytes: Array($0))! }
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            self = withUnsafeBytes(of: &v6) { IPAddress(bytes: Array($0))! }
            return
        }
        return nil
    }

    /// An address from its 4 or 16 bytes in network order; nil for any other length.
    public init?(bytes: some Collection<UInt8>) {
        switch bytes.count {
        case 4: self = .v4(bytes.reduce(0) { $0 << 8 | UInt32($1) })
        case 16: self = .v6(bytes.reduce(0) { $0 << 8 | UInt128($1) })
        default: return nil
        }
    }

    /// The conventional text form (`127.0.0.1`, `::ffff:10.0.0.1`).
    public var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        switch self {
        case .v4(let value):
            var address = in_addr(s_addr: value.bigEndian)
            inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
        case .v6(let value):
            var bytes = (0..<16).map { UInt8(truncatingIfNeeded: value >> (8 * (15 - $0))) }
            inet_ntop(AF_INET6, &bytes, &buffer, socklen_t(buffer.count))
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// An address block: `base/length`, with the bits past `length` ignored.
struct AddressBlock: Sendable {
    let address: IPAddress
    let length: Int

    init(_ text: String, _ length: Int) {
        address = IPAddress(text)!
        self.length = length
    }

    func contains(_ other: IPAddress) -> Bool {
        switch (address, other) {
        case (.v4(let base), .v4(let value)):
            let mask: UInt32 = length == 0 ? 0 : ~0 << (32 - length)
            return base & mask == value & mask
        case (.v6(let base), .v6(let value)):
            let mask: UInt128 = length == 0 ? 0 : ~0 << (128 - length)
            return base & mask == value & mask
        default:
            return false
        }
    }
}
