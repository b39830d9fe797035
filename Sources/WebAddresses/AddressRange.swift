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
