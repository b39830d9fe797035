#if canImport(Glibc)
    public import Glibc
#elseif canImport(Darwin)
    public import Darwin
#endif

/// An IPv4 or IPv6 address as 16 bytes. IPv4 addresses are held IPv4-mapped (`::ffff:a.b.c.d`), so `10.0.0.1`
/// and `::ffff:10.0.0.1` are one address, counted once by per-client limits and matched by the same ranges.
/// Zone identifiers (`fe80::1%eth0`) are not addresses here: they name an interface, not a host.
///
/// One type for both sides: the server's per-client limits and trusted proxies, and the outbound address policy,
/// which judges an IPv4-mapped address by its IPv4 address (it is that address, here).
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// Bytes 0-7 and 8-15, big-endian.
    let high: UInt64
    let low: UInt64

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Parses a numeric address: dotted-quad IPv4 (no octal, hex or short forms) or any IPv6 text form.
    public init?(_ text: some StringProtocol) {
        let text = String(text)
        guard !text.isEmpty, text.utf8.count <= 64, !text.utf8.contains(0) else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.init(ipv4NetworkOrder: v4.s_addr)
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        self.init(v6)
    }

    /// An address from its 4 (IPv4) or 16 (IPv6) bytes in network order, as a socket address holds them; nil for
    /// any other length.
    public init?(bytes: some Collection<UInt8>) {
        switch bytes.count {
        case 4:
            self.init(ipv4: bytes.reduce(0) { $0 << 8 | UInt32($1) })
        case 16:
            var high: UInt64 = 0
            var low: UInt64 = 0
            for (index, byte) in bytes.enumerated() {
                if index < 8 { high = high << 8 | UInt64(byte) } else { low = low << 8 | UInt64(byte) }
            }
            self.init(high: high, low: low)
        default:
            return nil
        }
    }

    /// An IPv4 address from its value, most significant byte first (`127.0.0.1` is `0x7f00_0001`).
    public init(ipv4 value: UInt32) {
        self.init(high: 0, low: 0x0000_FFFF_0000_0000 | UInt64(value))
    }

    /// The address of an `AF_INET` or `AF_INET6` socket address; nil for any other family.
    public init?(_ address: UnsafePointer<sockaddr>) {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            let v4 = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
            self.init(ipv4NetworkOrder: v4)
        case AF_INET6:
            let v6 = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            self.init(v6)
        default:
            return nil
        }
    }

    init(ipv4NetworkOrder value: UInt32) {
        self.init(ipv4: UInt32(bigEndian: value))
    }

    init(_ v6: in6_addr) {
        var bytes = v6
        let (high, low) = withUnsafeBytes(of: &bytes) { raw in
            (
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            )
        }
        self.init(high: high, low: low)
    }

    /// Whether this is an IPv4 address (held IPv4-mapped).
    public var isIPv4: Bool { high == 0 && low >> 32 == 0xFFFF }

    /// Whether this is a loopback address: 127.0.0.0/8 or ::1.
    public var isLoopback: Bool {
        isIPv4 ? (low >> 24) & 0xFF == 127 : (high == 0 && low == 1)
    }

    /// The canonical text: dotted quad for IPv4, RFC 5952 form for IPv6 (`2001:db8::1`), so that two spellings of
    /// one address are one key.
    public var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        if isIPv4 {
            var v4 = in_addr(s_addr: UInt32(truncatingIfNeeded: low).bigEndian)
            guard inet_ntop(AF_INET, &v4, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
        } else {
            var v6 = in6_addr()
            withUnsafeMutableBytes(of: &v6) { raw in
                raw.storeBytes(of: high.bigEndian, toByteOffset: 0, as: UInt64.self)
                raw.storeBytes(of: low.bigEndian, toByteOffset: 8, as: UInt64.self)
            }
            guard inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The block per-client limits count this address in: the address itself for IPv4, its /64 for IPv6. One
    /// subscriber, household or phone is given a whole /64 and may use any address in it, so counting IPv6 clients
    /// one address at a time would give each of them 2^64 budgets.
    public var clientBlock: IPAddress { isIPv4 ? self : masked(to: 64) }

    /// The IPv4 address in the last 32 bits, as IPv4-compatible (`::10.0.0.1`) and NAT64 (`64:ff9b::10.0.0.1`)
    /// IPv6 addresses carry one; for an IPv4 address, the address itself.
    public var trailingIPv4: IPAddress { IPAddress(ipv4: UInt32(truncatingIfNeeded: low)) }

    /// The address with every bit after the first `prefixLength` (of 128, IPv4 being IPv4-mapped) cleared.
    public func masked(to prefixLength: Int) -> IPAddress {
        let length = min(max(prefixLength, 0), 128)
        let highMask: UInt64 = length >= 64 ? .max : (length == 0 ? 0 : ~(UInt64.max >> UInt64(length)))
        let lowLength = length - 64
        let lowMask: UInt64 = lowLength <= 0 ? 0 : (lowLength >= 64 ? .max : ~(UInt64.max >> UInt64(lowLength)))
        return IPAddress(high: high & highMask, low: low & lowMask)
    }
}
