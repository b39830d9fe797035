import Testing

@testable import HTTPServer

struct AddressRangeTests {
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

    @Test("CIDR ranges match their addresses, across IPv4, IPv6 and IPv4-mapped forms")
    func ranges() throws {
        let private10 = try #require(AddressRange("10.0.0.0/8"))
        #expect(private10.contains(IPAddress("10.255.1.2")!))
        #expect(private10.contains(IPAddress("::ffff:10.1.1.1")!))
        #expect(!private10.contains(IPAddress("11.0.0.1")!))
        #expect(private10.description == "10.0.0.0/8")
        let ula = try #require(AddressRange("fd00::/8"))
        #expect(ula.contains(IPAddress("fd12:3456::1")!))
        #expect(!ula.contains(IPAddress("fe80::1")!))
        #expect(AddressRange("192.168.1.5")?.contains(IPAddress("192.168.1.5")!) == true)
        #expect(AddressRange("192.168.1.5")?.contains(IPAddress("192.168.1.6")!) == false)
        #expect(AddressRange("10.1.2.3/8") == private10, "host bits are cleared")
        #expect(AddressRange("0.0.0.0/0")?.contains(IPAddress("8.8.8.8")!) == true)
        #expect(AddressRange("0.0.0.0/0")?.contains(IPAddress("2001:db8::1")!) == false)
        #expect(AddressRange("::/0")?.contains(IPAddress("2001:db8::1")!) == true)
        for bad in ["10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0.0/-1", "10.0.0.0/8/8", "box/24", "10.0.0.0/ 8"] {
            #expect(AddressRange(bad) == nil, "\(bad)")
        }
    }

    @Test("the default trusted proxies are loopback only, and a bad entry is named in the error")
    func trustedProxies() throws {
        #expect(TrustedProxies.loopback.contains(IPAddress("127.0.0.1")!))
        #expect(TrustedProxies.loopback.contains(IPAddress("127.1.2.3")!))
        #expect(TrustedProxies.loopback.contains(IPAddress("::1")!))
        #expect(!TrustedProxies.loopback.contains(IPAddress("192.168.1.20")!))
        #expect(!TrustedProxies.nobody.contains(IPAddress("127.0.0.1")!))
        let parsed = try TrustedProxies(parsing: ["10.0.0.0/8", " 192.168.1.5 "])
        #expect(parsed.contains(IPAddress("192.168.1.5")!))
        let error = #expect(throws: AddressRangeError.self) { try TrustedProxies(parsing: ["10.0.0.0/8", "proxy.lan"]) }
        #expect(error?.description.contains("\"proxy.lan\"") == true)
    }
}
