import Foundation

/// A CIDR range such as `10.0.0.0/8` or `fd00::/8`; a plain address is a range of one.
public struct AddressRange: Hashable, Sendable, CustomStringConvertible {
    /// The first address of the range.
    public let network: IPAddress
    /// The prefix length in the 128-bit space (an IPv4 `/8` is 104 here, since IPv4 is held IPv4-mapped).
    let prefixLength: Int

    /// A range from its network address and prefix length (0-32 for IPv4, 0-128 for IPv6); host bits are cleared.
    public init?(_ address: IPAddress, prefixLength: Int) {
        let limit = address.isIPv4 ? 32 : 128
        guard (0...limit).contains(prefixLength) else { return nil }
        self.prefixLength = address.isIPv4 ? prefixLength + 96 : prefixLength
        network = address.masked(to: self.prefixLength)
    }

    /// Parses `address/length` or a plain address; nil for anything else (names, zone identifiers, bad lengths).
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(parts[0]) else { return nil }
        guard parts.count == 2 else {
            self.init(address, prefixLength: address.isIPv4 ? 32 : 128)
            return
        }
        let digits = parts[1]
        guard (1...3).contains(digits.utf8.count), digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let length = Int(digits)
        else { return nil }
        self.init(address, prefixLength: length)
    }

    /// Whether `address` lies in the range.
    public func contains(_ address: IPAddress) -> Bool {
        address.masked(to: prefixLength) == network
    }

    /// `10.0.0.0/8`, `::1/128`.
    public var description: String {
        "\(network)/\(network.isIPv4 && prefixLength >= 96 ? prefixLength - 96 : prefixLength)"
    }
}

/// The reverse proxies whose forwarding headers (`X-Forwarded-For`, `-Proto`, `-Host`) are believed. A peer
/// outside the set is taken as the client itself, whatever it writes in those headers.
public struct TrustedProxies: Sendable, Equatable {
    /// The trusted ranges.
    public let ranges: [AddressRange]

    /// Trusts exactly `ranges`.
    public init(_ ranges: [AddressRange]) {
        self.ranges = ranges
    }

    /// Parses CIDR ranges and plain addresses (`--trusted-proxy 10.0.0.0/8 --trusted-proxy 192.168.1.5`).
    /// - Throws: `AddressRangeError` naming the first entry that is not a numeric address or range.
    public init(parsing entries: [String]) throws(AddressRangeError) {
        var ranges: [AddressRange] = []
        for entry in entries {
            let trimmed = entry.trimmingCharacters(in: .whitespaces)
            guard let range = AddressRange(trimmed) else { throw AddressRangeError(entry: entry) }
            ranges.append(range)
        }
        self.init(ranges)
    }

    /// Loopback only (127.0.0.0/8 and ::1): a proxy on the same machine. The default.
    public static let loopback = TrustedProxies([
        AddressRange(IPAddress(high: 0, low: 0x0000_FFFF_7F00_0000), prefixLength: 8)!,
        AddressRange(IPAddress(high: 0, low: 1), prefixLength: 128)!,
    ])

    /// No proxy is trusted.
    public static let nobody = TrustedProxies([])

    /// Whether `address` is a trusted proxy.
    public func contains(_ address: IPAddress) -> Bool {
        ranges.contains { $0.contains(address) }
    }
}

/// A `--trusted-proxy` entry that is not an address or CIDR range.
public struct AddressRangeError: Error, Sendable, CustomStringConvertible {
    /// The entry as given.
    public let entry: String

    public var description: String {
        "\(String(reflecting: entry)) is not an IP address or CIDR range (examples: 10.0.0.0/8, 192.168.1.5, fd00::/8)"
    }
}
