import Foundation
import Testing
import WebAddresses

@testable import Outbound

struct AddressPolicyTests {
    /// Every special-purpose block, by a typical member and by both ends.
    static let refused: [(String, AddressCategory)] = [
        ("0.0.0.0", .unspecified), ("0.255.255.255", .unspecified),
        ("10.0.0.0", .privateUse), ("10.0.0.1", .privateUse), ("10.255.255.255", .privateUse),
        ("100.64.0.0", .sharedAddressSpace), ("100.64.0.1", .sharedAddressSpace),
        ("100.127.255.255", .sharedAddressSpace),
        ("127.0.0.1", .loopback), ("127.255.255.254", .loopback), ("127.0.0.0", .loopback),
        ("169.254.169.254", .linkLocal), ("169.254.0.0", .linkLocal), ("169.254.255.255", .linkLocal),
        ("172.16.0.0", .privateUse), ("172.31.255.255", .privateUse),
        ("192.0.0.8", .reserved), ("192.0.2.1", .documentation), ("192.88.99.1", .reserved),
        ("192.168.0.0", .privateUse), ("192.168.1.1", .privateUse), ("192.168.255.255", .privateUse),
        ("198.18.0.1", .benchmarking), ("198.19.255.255", .benchmarking),
        ("198.51.100.7", .documentation), ("203.0.113.9", .documentation),
        ("224.0.0.1", .multicast), ("239.255.255.250", .multicast),
        ("240.0.0.1", .reserved), ("255.255.255.254", .reserved), ("255.255.255.255", .broadcast),
        ("::", .unspecified), ("::1", .loopback),
        ("fc00::1", .privateUse), ("fd12:3456::1", .privateUse), ("fec0::1", .privateUse),
        ("fe80::1", .linkLocal), ("febf:ffff::1", .linkLocal),
        ("ff02::1", .multicast), ("ff0e::1", .multicast),
        ("64:ff9b:1::1", .privateUse), ("100::1", .reserved),
        ("2001::1", .reserved), ("2001:0:4136:e378::1", .reserved), ("2001:1ff:ffff::1", .reserved),
        ("2001:2::1", .benchmarking), ("2001:db8::1", .documentation), ("3fff::1", .documentation),
        ("2002:7f00:1::1", .reserved), ("2002:0808:0808::1", .reserved),
        ("1fff:ffff::1", .reserved), ("4000::1", .reserved), ("5f00::1", .reserved),
    ]

    /// IPv6 forms whose connection ends at an IPv4 address are judged by that address.
    static let embeddedIPv4: [(String, AddressCategory?)] = [
        ("::ffff:127.0.0.1", .loopback), ("::ffff:10.0.0.1", .privateUse),
        ("::ffff:169.254.169.254", .linkLocal), ("::ffff:100.64.0.1", .sharedAddressSpace),
        ("::ffff:0.0.0.0", .unspecified), ("::ffff:255.255.255.255", .broadcast), ("::ffff:7f00:1", .loopback),
        ("::127.0.0.1", .loopback), ("::10.1.2.3", .privateUse), ("::8.8.8.8", .reserved),
        ("64:ff9b::127.0.0.1", .loopback), ("64:ff9b::192.168.0.1", .privateUse),
        ("::ffff:1.1.1.1", nil), ("64:ff9b::1.1.1.1", nil),
    ]

    /// Public addresses, including the first and last just outside each refused block.
    static let allowed: [String] = [
        "1.1.1.1", "8.8.8.8", "93.184.216.34",
        "1.0.0.0", "9.255.255.255", "11.0.0.0", "100.63.255.255", "100.128.0.0", "126.255.255.255", "128.0.0.0",
        "169.253.255.255", "169.255.0.0", "172.15.255.255", "172.32.0.0", "192.0.1.0", "192.0.3.0",
        "192.88.98.255", "192.88.100.0", "192.167.255.255", "192.169.0.0", "198.17.255.255", "198.20.0.0",
        "198.51.99.255", "198.51.101.0", "203.0.112.255", "203.0.114.0", "223.255.255.255",
        "2606:4700::1111", "2a00:1450:4001::1", "2000::1", "2001:200::1", "2001:db7:ffff::1", "2001:db9::1",
        "2003::1", "3ffe:ffff::1", "3fff:1000::1",
    ]

    @Test("every special-purpose address is refused with its category", arguments: refused)
    func refusesSpecialAddresses(text: String, category: AddressCategory) throws {
        let address = try #require(IPAddress(text))
        #expect(AddressCategory.of(address) == category, "\(text)")
        #expect(AddressPolicy.publicOnly.refusal(connectingTo: address, for: try #require(Origin("https://a.test"))) == category)
    }

    @Test("IPv4-mapped, IPv4-compatible and NAT64 IPv6 addresses are judged by their IPv4 address", arguments: embeddedIPv4)
    func judgesEmbeddedIPv4(text: String, category: AddressCategory?) throws {
        #expect(AddressCategory.of(try #require(IPAddress(text))) == category, "\(text)")
    }

    @Test("public unicast addresses, also those just outside each block, are allowed", arguments: allowed)
    func allowsPublicAddresses(text: String) throws {
        #expect(AddressCategory.of(try #require(IPAddress(text))) == nil, "\(text)")
    }

    @Test("an allowed origin may connect anywhere; a different port, scheme or host name may not")
    func allowanceIsExactOrigin() throws {
        let policy = AddressPolicy.publicOnly.allowing([URL(string: "http://127.0.0.1:8080/xrpc")!])
        let loopback = try #require(IPAddress("127.0.0.1"))
        #expect(policy.refusal(connectingTo: loopback, for: try #require(Origin("http://127.0.0.1:8080/other?q"))) == nil)
        #expect(policy.refusal(connectingTo: loopback, for: try #require(Origin("http://127.0.0.1:8081/"))) == .loopback)
        #expect(policy.refusal(connectingTo: loopback, for: try #require(Origin("https://127.0.0.1:8080/"))) == .loopback)
        #expect(policy.refusal(connectingTo: loopback, for: try #require(Origin("http://localhost:8080/"))) == .loopback)
    }

    @Test("a request's origin is libcurl's: default port filled in, lowercase host, bracketed IPv6, userinfo ignored")
    func requestOrigin() throws {
        #expect(ParsedURL("https://Example.COM/path")?.origin == Origin("https://example.com"))
        #expect(ParsedURL("https://Example.COM/path")?.origin.effectivePort == 443)
        #expect(ParsedURL("http://example.com")?.origin.effectivePort == 80)
        #expect(ParsedURL("http://[::1]:8080/")?.origin.urlHost == "[::1]")
        #expect(ParsedURL("http://allowed.test@127.0.0.1:9/")?.origin == Origin("http://127.0.0.1:9"))
        #expect(ParsedURL("ftp://example.com/") == nil)
        #expect(ParsedURL("file:///etc/passwd") == nil)
        #expect(ParsedURL("not a url") == nil)
        // An allowance is never written with user info: that text is no origin at all.
        #expect(Origin("http://allowed.test@127.0.0.1:9/") == nil)
    }

    @Test("a host libcurl takes but Origin refuses is refused before any connection")
    func strictHosts() {
        #expect(ParsedURL("http://example.com./") == nil)
        #expect(ParsedURL("http://ex_ample.com/") != nil)
    }

    @Test("a refusal names the host, the category and the address it resolved to")
    func refusalMessage() {
        let named = OutboundError(.refused(address: IPAddress("127.0.0.1")!, category: .loopback), host: "localhost")
        #expect(named.description == "refused: localhost resolved to a loopback address (127.0.0.1)")
        let literal = OutboundError(.refused(address: IPAddress("10.0.0.1")!, category: .privateUse), host: "10.0.0.1")
        #expect(literal.description == "refused: 10.0.0.1 is a private address")
        let mapped = OutboundError(.refused(address: IPAddress("::ffff:10.0.0.1")!, category: .privateUse), host: "[::ffff:10.0.0.1]")
        #expect(mapped.description == "refused: [::ffff:10.0.0.1] is a private address")
        let v6 = OutboundError(.refused(address: IPAddress("::1")!, category: .loopback), host: "[::1]")
        #expect(v6.description == "refused: [::1] is a loopback address")
    }
}
