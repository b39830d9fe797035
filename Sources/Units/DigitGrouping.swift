extension BinaryInteger {
    /// The number with a comma between each group of three digits, the same on every locale the server runs in:
    /// 14000 as `14,000`, -1234567 as `-1,234,567`.
    public var groupedDigits: String {
        let digits = String(magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return self < 0 ? "-" + out : out
    }
}
