import Testing
import Units

struct ByteCountTests {
    /// What an owner types as a quota becomes bytes in the same decimal units the page and the refusal print.
    @Test("quotas parse as people write them, and print back the same")
    func parsesAndPrints() {
        #expect(ByteCount.parse("500M") == 500_000_000)
        #expect(ByteCount.parse("500 MB") == 500_000_000)
        #expect(ByteCount.parse("1.5g") == 1_500_000_000)
        #expect(ByteCount.parse("2000") == 2000)
        #expect(ByteCount.parse(" 20k ") == 20_000)
        #expect(ByteCount.text(ByteCount.parse("500M") ?? 0) == "500 MB")
        for bad in ["", "M", "-5M", "five", "1e3", "12X", "1.2.3G", "99999999T"] {
            #expect(ByteCount.parse(bad) == nil, "\(bad)")
        }
    }
}
