public import WebAddresses

/// Why an address is not a public unicast destination, as the refusal message names it.
public enum AddressCategory: String, Sendable, Hashable, CustomStringConvertible {
    /// `0.0.0.0/8`, `::`: "this host" or "this network", which the kernel routes to the local machine.
    case unspecified
    /// `127.0.0.0/8`, `::1`.
    case loopback
    /// RFC 1918 networks, IPv6 unique local (`fc00::/7`) and deprecated site-local (`fec0::/10`) addresses.
    case privateUse
    /// `169.254.0.0/16` (cloud metadata lives here), `fe80::/10`.
    case linkLocal
    /// `100.64.0.0/10`, carrier-grade NAT (RFC 6598).
    case sharedAddressSpace
    /// `224.0.0.0/4`, `ff00::/8`.
    case multicast
    /// `255.255.255.255`.
    case broadcast
    /// Blocks set aside for examples (`192.0.2.0/24`, `2001:db8::/32`, …).
    case documentation
    /// `198.18.0.0/15`, `2001:2::/48`.
    case benchmarking
    /// Everything else that is not globally reachable unicast: IETF protocol blocks, `240.0.0.0/4`, transition
    /// mechanisms that hide an IPv4 address (6to4, Teredo), and IPv6 outside `2000::/3`.
    case reserved

    /// "a private address", as in "refused: example.com resolved to a private address".
    public var description: String {
        switch self {
        case .unspecified: "an unspecified address"
        case .loopback: "a loopback address"
        case .privateUse: "a private address"
        case .linkLocal: "a link-local address"
        case .sharedAddressSpace: "a carrier-grade NAT address"
        case .multicast: "a multicast address"
        case .broadcast: "a broadcast address"
        case .documentation: "a documentation address"
        case .benchmarking: "a benchmarking address"
        case .reserved: "a reserved address"
        }
    }
}

extension AddressCategory {
    /// The category that keeps `address` from being connected to, or nil for public unicast.
    ///
    /// Sources: the IANA IPv4 and IPv6 Special-Purpose Address Registries
    /// (https://www.iana.org/assignments/iana-ipv4-special-registry,
    /// https://www.iana.org/assignments/iana-ipv6-special-registry): every block there that is not "Globally
    /// Reachable" is refused, plus multicast and IPv6 outside global unicast `2000::/3` (as indigo's SSRF dialer
    /// does). IPv6 forms that carry an IPv4 address a connection would end up at (mapped `::ffff:0:0/96`,
    /// compatible `::/96`, NAT64 `64:ff9b::/96`) are judged by that IPv4 address.
    public static func of(_ address: IPAddress) -> AddressCategory? {
        // An IPv4-mapped address (`::ffff:0:0/96`) is its IPv4 address here, so it takes this first branch.
        if address.isIPv4 { return ipv4Blocks.first { $0.block.contains(address) }?.category }
        if let category = ipv6Blocks.first(where: { $0.block.contains(address) })?.category { return category }
        let embedded = address.trailingIPv4
        if nat64.contains(address) { return of(embedded) }
        // Deprecated IPv4-compatible addresses never reach the public Internet as IPv6.
        if compatible.contains(address) { return of(embedded) ?? .reserved }
        return globalUnicast.contains(address) ? nil : .reserved
    }

    private static let ipv4Blocks: [(block: AddressRange, category: AddressCategory)] = [
        (AddressRange("0.0.0.0/8")!, .unspecified),
        (AddressRange("10.0.0.0/8")!, .privateUse),
        (AddressRange("100.64.0.0/10")!, .sharedAddressSpace),
        (AddressRange("127.0.0.0/8")!, .loopback),
        (AddressRange("169.254.0.0/16")!, .linkLocal),
        (AddressRange("172.16.0.0/12")!, .privateUse),
        (AddressRange("192.0.0.0/24")!, .reserved),  // IETF protocol assignments
        (AddressRange("192.0.2.0/24")!, .documentation),  // TEST-NET-1
        (AddressRange("192.88.99.0/24")!, .reserved),  // deprecated 6to4 relay anycast
        (AddressRange("192.168.0.0/16")!, .privateUse),
        (AddressRange("198.18.0.0/15")!, .benchmarking),
        (AddressRange("198.51.100.0/24")!, .documentation),  // TEST-NET-2
        (AddressRange("203.0.113.0/24")!, .documentation),  // TEST-NET-3
        (AddressRange("224.0.0.0/4")!, .multicast),
        (AddressRange("255.255.255.255/32")!, .broadcast),
        (AddressRange("240.0.0.0/4")!, .reserved),
    ]

    /// Checked before the IPv4-carrying forms below, so `::` and `::1` are not read as `0.0.0.0` and `0.0.0.1`.
    private static let ipv6Blocks: [(block: AddressRange, category: AddressCategory)] = [
        (AddressRange("::/128")!, .unspecified),
        (AddressRange("::1/128")!, .loopback),
        (AddressRange("64:ff9b:1::/48")!, .privateUse),  // local-use IPv4/IPv6 translation
        (AddressRange("100::/64")!, .reserved),  // discard-only
        (AddressRange("2001:2::/48")!, .benchmarking),
        (AddressRange("2001::/23")!, .reserved),  // IETF protocol assignments, Teredo included
        (AddressRange("2001:db8::/32")!, .documentation),
        (AddressRange("2002::/16")!, .reserved),  // 6to4
        (AddressRange("3fff::/20")!, .documentation),
        (AddressRange("fc00::/7")!, .privateUse),  // unique local
        (AddressRange("fec0::/10")!, .privateUse),  // deprecated site-local
        (AddressRange("fe80::/10")!, .linkLocal),
        (AddressRange("ff00::/8")!, .multicast),
    ]

    private static let compatible = AddressRange("::/96")!
    private static let nat64 = AddressRange("64:ff9b::/96")!
    private static let globalUnicast = AddressRange("2000::/3")!
}
