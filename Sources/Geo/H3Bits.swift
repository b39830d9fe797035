/// Digit-level operations on raw cell indexes (bit layout from the H3 "cell index bit layout" docs:
/// 3 bits per resolution 1–15, resolution 1 highest, below the 7-bit base cell).
enum H3Bits {
    /// Digit rotations, indexed by digit (1 = k, 2 = j, 3 = jk, 4 = i, 5 = ik, 6 = ij).
    private static let ccw: [UInt64] = [0, 5, 3, 1, 6, 4, 2, 7]
    private static let cw: [UInt64] = [0, 3, 6, 2, 5, 1, 4, 7]

    @inline(__always)
    static func digit(_ raw: UInt64, _ r: Int) -> Int {
        Int((raw >> UInt64((15 - r) * 3)) & 7)
    }

    @inline(__always)
    static func setDigit(_ raw: UInt64, _ r: Int, _ digit: UInt64) -> UInt64 {
        let shift = UInt64((15 - r) * 3)
        return raw & ~(7 << shift) | digit << shift
    }

    /// The first non-zero digit, or 0 when the cell is the centre descendant of its base cell.
    static func leadingNonZeroDigit(_ raw: UInt64) -> Int {
        let resolution = Int((raw >> 52) & 0xF)
        var r = 1
        while r <= resolution {
            let d = digit(raw, r)
            if d != 0 { return d }
            r += 1
        }
        return 0
    }

    /// Every digit turned 60° counter-clockwise.
    static func rotatedCCW(_ raw: UInt64) -> UInt64 {
        rotated(raw, table: ccw)
    }

    /// Every digit turned 60° clockwise.
    static func rotatedCW(_ raw: UInt64) -> UInt64 {
        rotated(raw, table: cw)
    }

    /// A counter-clockwise turn around a pentagon: when it lands in the deleted k sub-sequence the
    /// cell is turned once more, past the missing wedge.
    static func pentagonRotatedCCW(_ raw: UInt64) -> UInt64 {
        let once = rotatedCCW(raw)
        return leadingNonZeroDigit(once) == 1 ? rotatedCCW(once) : once
    }

    private static func rotated(_ raw: UInt64, table: [UInt64]) -> UInt64 {
        let resolution = Int((raw >> 52) & 0xF)
        var out = raw
        var r = 1
        while r <= resolution {
            out = setDigit(out, r, table[digit(raw, r)])
            r += 1
        }
        return out
    }
}
