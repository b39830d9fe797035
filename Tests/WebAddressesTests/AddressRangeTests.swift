import Testing
import WebAddresses

struct AddressRangeTests {
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
}
