/// An H3 cell index: one hexagon (or one of the twelve pentagons) of Uber's hierarchical
/// hexagonal grid at a resolution from 0 (coarsest) to 15.
///
/// Every instance holds a valid cell index; the initializers reject anything else.
public struct H3Cell: Hashable, Sendable, CustomStringConvertible, Comparable {
    /// The 64-bit index, as H3 libraries store and exchange it.
    public let rawValue: UInt64

    /// Parses the canonical hexadecimal form (either case, no prefix, at most 16 digits);
    /// nil when the text is not hexadecimal or is not a valid cell index.
    public init?(_ hex: String) {
        let utf8 = hex.utf8
        guard !utf8.isEmpty, utf8.count <= 16 else { return nil }
        var value: UInt64 = 0
        for byte in utf8 {
            let nibble: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt64(nibble)
        }
        self.init(rawValue: value)
    }

    /// Accepts only a valid cell index: mode 1, zero reserved bits, resolution 0–15, base cell 0–121,
    /// digits 0–6 up to the resolution and 7 after it, and no pentagon child in the deleted k direction.
    public init?(rawValue: UInt64) {
        guard Self.isValid(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    /// Builds a cell from parts the caller has already made valid.
    init(unchecked rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// Lower-case hexadecimal without padding or prefix, as stored in Grain records.
    public var description: String {
        String(rawValue, radix: 16)
    }

    /// The resolution, 0 (base cells) to 15.
    public var resolution: Int {
        Int((rawValue >> 52) & 0xF)
    }

    /// The resolution-0 ancestor, 0–121.
    public var baseCell: Int {
        Int((rawValue >> 45) & 0x7F)
    }

    /// Whether the cell is one of the twelve pentagons at its resolution (the centre descendants of
    /// the pentagon base cells).
    public var isPentagon: Bool {
        pentagonCwOffsetFaces(baseCell) != nil && H3Bits.leadingNonZeroDigit(rawValue) == 0
    }

    /// The ancestor at a coarser (or the same) resolution; nil when `resolution` is negative or finer
    /// than this cell's.
    public func parent(at resolution: Int) -> H3Cell? {
        let own = self.resolution
        guard resolution >= 0, resolution <= own else { return nil }
        var raw = rawValue & ~(UInt64(0xF) << 52) | UInt64(resolution) << 52
        for r in stride(from: resolution + 1, through: own, by: 1) {
            raw = H3Bits.setDigit(raw, r, 7)
        }
        return H3Cell(unchecked: raw)
    }

    /// Orders by the 64-bit index, which groups cells by resolution and then by base cell.
    public static func < (lhs: H3Cell, rhs: H3Cell) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    private static func isValid(_ raw: UInt64) -> Bool {
        guard raw >> 63 == 0, (raw >> 59) & 0xF == 1, (raw >> 56) & 0x7 == 0 else { return false }
        let resolution = Int((raw >> 52) & 0xF)
        let baseCell = Int((raw >> 45) & 0x7F)
        guard baseCell < H3Grid.baseCellCount else { return false }
        var leading = 0
        for r in 1...H3Grid.maxResolution {
            let digit = H3Bits.digit(raw, r)
            if r <= resolution {
                guard digit != 7 else { return false }
                if leading == 0 { leading = digit }
            } else {
                guard digit == 7 else { return false }
            }
        }
        // Pentagons have no child in the k direction: that sub-sequence is deleted from the grid.
        if leading == 1, pentagonCwOffsetFaces(baseCell) != nil { return false }
        return true
    }
}
