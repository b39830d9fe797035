import Testing
import Units

@Suite struct DigitGroupingTests {
    @Test(
        "numbers are grouped in threes with commas, the sign kept, on every locale",
        arguments: [(0, "0"), (999, "999"), (1000, "1,000"), (14_000, "14,000"), (1_234_567, "1,234,567"), (-1_234_567, "-1,234,567")])
    func grouped(value: Int, text: String) {
        #expect(value.groupedDigits == text)
    }

    @Test("unsigned and the largest values group the same way")
    func extremes() {
        #expect(UInt64.max.groupedDigits == "18,446,744,073,709,551,615")
        #expect(Int64.min.groupedDigits == "-9,223,372,036,854,775,808")
    }
}
