import Testing

@testable import Geo

struct H3ValidationTests {
    /// Parsing accepts the canonical form and either case, and prints lower case without padding.
    @Test("round-trips hex strings through the 64-bit index")
    func roundTrip() throws {
        // MUT
        let cell = try #require(H3Cell("8A2A1072B59FFFF"))
        // validate
        #expect(cell.rawValue == 0x8a2_a107_2b59_ffff)
        #expect(cell.description == "8a2a1072b59ffff")
        #expect(H3Cell(rawValue: cell.rawValue) == cell)
        #expect(try #require(H3Cell("8001fffffffffff")) < cell)
    }

    /// Text that is not a plain hex number of at most 16 digits is refused.
    @Test(
        "rejects malformed hex strings",
        arguments: ["", "0x8a2a1072b59ffff", "8a2a1072b59fffg", " 8a2a1072b59ffff", "8a2a1072b59ffff ", "08a2a1072b59ffff0", "-8a"]
    )
    func malformed(_ text: String) {
        #expect(H3Cell(text) == nil)
    }

    /// Each field of the bit layout is checked: mode, reserved bits, resolution, base cell, digits.
    @Test(
        "rejects invalid bit layouts",
        arguments: [
            ("0", "mode 0"),
            ("a2a1072b59ffff", "mode 0 with a valid-looking tail"),
            ("10001fffffffffff", "mode 2 (directed edge)"),
            ("928a1072b59ffff", "mode 2 with cell fields"),
            ("880a1072b59ffff", "reserved bits after the mode set"),
            ("80f5fffffffffff", "base cell 122"),
            ("80fffffffffffff", "base cell 127"),
            ("85280a7ffffffff", "digit 7 at resolution 5 of 5"),
            ("8a2a1072b59fff8", "digit 0 after the resolution"),
            ("81087ffffffffff", "pentagon base cell 4, leading digit 1"),
            ("82080ffffffffff", "pentagon base cell 4, digits 0 then 1"),
            ("8408015ffffffff", "pentagon base cell 4, digits 0, 0, 1, 2"),
            ("82ea0ffffffffff", "pentagon base cell 117, digits 0 then 1"),
        ]
    )
    func invalidLayouts(_ text: String, _ reason: String) {
        #expect(H3Cell(text) == nil, "\(reason)")
    }

    /// Resolution 16 does not fit the 4-bit field: writing it spills into the mode bits.
    @Test("rejects resolution 16 and the reserved top bit")
    func resolutionSixteen() throws {
        // setup
        let finest = try #require(H3.cell(latitude: 10, longitude: 10, resolution: 15)).rawValue
        let cleared = finest & ~(UInt64(0xF) << 52)
        // validate
        #expect(H3Cell(rawValue: cleared &+ (16 << 52)) == nil)
        #expect(H3Cell(rawValue: finest | 1 << 63) == nil)
        #expect(H3Cell(rawValue: finest | 7) == nil)  // digit 7 at resolution 15
        #expect(H3Cell(rawValue: finest) != nil)
    }

    /// Valid neighbours of the invalid cases above stay valid.
    @Test(
        "accepts valid cells near the invalid ones",
        arguments: ["8108bffffffffff", "81007ffffffffff", "82088ffffffffff", "8001fffffffffff", "80f3fffffffffff", "85283083fffffff"]
    )
    func validCells(_ text: String) {
        #expect(H3Cell(text)?.description == text)
    }
}
