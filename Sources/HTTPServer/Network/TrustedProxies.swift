import Foundation
public import WebAddresses

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
        AddressRange("127.0.0.0/8")!,
        AddressRange("::1")!,
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
