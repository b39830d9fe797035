extension CSVRecordReader {
    /// The field without leading and trailing spaces and tabs.
    func trimmed(_ field: Field) -> Field {
        var field = field
        while field.start < field.end, bytes[field.start] == 0x20 || bytes[field.start] == 0x09 { field.start += 1 }
        while field.end > field.start, bytes[field.end - 1] == 0x20 || bytes[field.end - 1] == 0x09 { field.end -= 1 }
        return field
    }

    /// The field as a number. Plain decimals (`-33.86785`) are parsed from the bytes, which is several times
    /// faster than going through `String`; anything else (exponents, long mantissas) falls back to `Double`.
    func decimal(_ field: Field) -> Double? {
        var index = field.start
        let end = field.end
        var negative = false
        if index < end, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var mantissa: Int64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), digits < 15 {
                mantissa = mantissa * 10 + Int64(byte - UInt8(ascii: "0"))
                digits += 1
                if seenPoint { fractionDigits += 1 }
            } else {
                return Double(string(field))
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        // Both operands are exact and the division is correctly rounded, so this equals `Double(text)`.
        let value = Double(mantissa) / Self.powersOfTen[fractionDigits]
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = (0...15).map { exponent in
        (0..<exponent).reduce(1.0) { value, _ in value * 10 }
    }
}
