import Testing
import WebAddresses

struct IPAddressTests {
    @Test("IPv4 and IPv4-mapped IPv6 spellings are one address; zone identifiers and names are not addresses")
    func parsing() throws {
        let v4 = try #require(IPAddress("10.0.0.1"))
        #expect(IPAddress("::ffff:10.0.0.1") == v4)
        #expect(v4.isIPv4)
        #expect(v4.description == "10.0.0.1")
        #expect(IPAddress("2001:DB8:0:0::1")?.description == "2001:db8::1")
        #expect(IPAddress("::1")?.isLoopback == true)
        #expect(IPAddress("127.8.9.10")?.isLoopback == true)
        #expect(IPAddress("128.0.0.1")?.isLoopback == false)
        for bad in ["", "10.0.0", "010.0.0.1", "0x7f.0.0.1", "256.1.1.1", "fe80::1%eth0", "localhost", " 10.0.0.1", "1.2.3.4:80"] {
            #expect(IPAddress(bad) == nil, "\(bad)")
        }
    }

    @Test("addresses parse from text and print back in canonical form; an IPv4-mapped address prints as its IPv4 address")
    func text() {
        #expect(IPAddress("10.1.2.3")?.description == "10.1.2.3")
        // The server's keys need one text per address, so the mapped form is the dotted quad here (Outbound's own
        // type printed `::ffff:127.0.0.1`; only its refusal messages showed that text).
        #expect(IPAddress("::FFFF:127.0.0.1")?.description == "127.0.0.1")
        #expect(IPAddress("::ffff:7f00:1") == IPAddress("127.0.0.1"))
        #expect(IPAddress("2001:DB8:0:0:0:0:0:1")?.description == "2001:db8::1")
        #expect(IPAddress("::127.0.0.1")?.description == "::127.0.0.1", "IPv4-compatible is IPv6, not IPv4")
        #expect(IPAddress("::127.0.0.1")?.isIPv4 == false)
        #expect(IPAddress("example.com") == nil)
        #expect(IPAddress("10.1.2") == nil)
        #expect(IPAddress("127.0.0.1\0.evil") == nil, "an embedded NUL is not cut off")
    }

    @Test("addresses from their bytes in network order: 4 are IPv4, 16 IPv6 (an IPv4-mapped one is its IPv4 address)")
    func bytes() {
        #expect(IPAddress(bytes: [127, 0, 0, 1]) == IPAddress(ipv4: 0x7f00_0001))
        #expect(IPAddress(bytes: [127, 0, 0, 1]) == IPAddress("127.0.0.1"))
        #expect(IPAddress(bytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 10, 0, 0, 1]) == IPAddress("10.0.0.1"))
        #expect(IPAddress(bytes: [0x20, 0x01, 0x0d, 0xb8] + [UInt8](repeating: 0, count: 11) + [1]) == IPAddress("2001:db8::1"))
        #expect(IPAddress(bytes: [1, 2, 3]) == nil)
        #expect(IPAddress(bytes: [UInt8](repeating: 0, count: 5)) == nil)
    }

    @Test("the IPv4 address an IPv6 address carries in its last 32 bits, and masking to a prefix")
    func embeddedAndMasked() {
        #expect(IPAddress("64:ff9b::192.168.0.1")?.trailingIPv4 == IPAddress("192.168.0.1"))
        #expect(IPAddress("::10.1.2.3")?.trailingIPv4 == IPAddress("10.1.2.3"))
        #expect(IPAddress("10.1.2.3")?.trailingIPv4 == IPAddress("10.1.2.3"))
        #expect(IPAddress("2001:db8:1:2:3:4:5:6")?.masked(to: 64) == IPAddress("2001:db8:1:2::"))
        #expect(IPAddress("2001:db8:1:2:3:4:5:6")?.clientBlock == IPAddress("2001:db8:1:2::"))
        #expect(IPAddress("10.1.2.3")?.clientBlock == IPAddress("10.1.2.3"))
    }
}
