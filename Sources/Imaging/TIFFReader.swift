/// A bounds-checked view of a TIFF structure (the body of an EXIF block) in either byte order.
///
/// Offsets in TIFF are relative to the byte-order mark, so every read is relative to `range.lowerBound` and every
/// access is checked against `range`; a bad offset yields nil instead of trapping.
struct TIFFReader {
    /// One 12-byte IFD entry, with the absolute position of its value (inline or pointed to) already checked to
    /// lie inside the data.
    struct Entry {
        var tag: Int
        var type: Int
        var count: Int
        /// Absolute index in `bytes` of the first value byte.
        var valueStart: Int
    }

    /// More entries than any camera writes; a larger count is corruption.
    static let maxEntries = 1_000

    private let bytes: [UInt8]
    private let range: Range<Int>
    private let littleEndian: Bool
    /// Offset of IFD0, relative to the start of the TIFF data.
    let firstIFDOffset: Int

    init?(_ bytes: [UInt8], range: Range<Int>) {
        guard range.lowerBound >= 0, range.upperBound <= bytes.count, range.count >= 8 else { return nil }
        self.bytes = bytes
        self.range = range
        let start = range.lowerBound
        switch (bytes[start], bytes[start + 1]) {
        case (0x49, 0x49): littleEndian = true  // "II", Intel
        case (0x4D, 0x4D): littleEndian = false  // "MM", Motorola
        default: return nil
        }
        guard let magic = Self.read(bytes, start + 2, 2, littleEndian), magic == 42,
            let offset = Self.read(bytes, start + 4, 4, littleEndian)
        else { return nil }
        firstIFDOffset = offset
    }

    /// The entries of the IFD at `offset`, or nil when its count or entry table leaves the data. Entries whose
    /// values leave the data are skipped, so the others can still be used.
    func entries(at offset: Int) -> [Entry]? {
        guard let count = unsigned(at: offset, size: 2), count <= Self.maxEntries else { return nil }
        let table = offset + 2
        guard table + count * 12 <= range.count else { return nil }
        var result: [Entry] = []
        result.reserveCapacity(count)
        for index in 0..<count {
            let at = table + index * 12
            guard let tag = unsigned(at: at, size: 2), let type = unsigned(at: at + 2, size: 2),
                let valueCount = unsigned(at: at + 4, size: 4)
            else { continue }
            let unit = Self.unitSize(type)
            // Overflow-free: unit <= 8 and valueCount < 2^32.
            let size = unit * valueCount
            guard unit > 0, size <= range.count else { continue }
            let valueOffset: Int
            if size <= 4 {
                valueOffset = at + 8
            } else {
                guard let pointer = unsigned(at: at + 8, size: 4) else { continue }
                valueOffset = pointer
            }
            guard valueOffset + size <= range.count else { continue }
            result.append(
                Entry(tag: tag, type: type, count: valueCount, valueStart: range.lowerBound + valueOffset)
            )
        }
        return result
    }

    /// The first value of a BYTE, SHORT or LONG entry.
    func integer(_ entry: Entry) -> Int? {
        guard entry.count >= 1 else { return nil }
        switch entry.type {
        case 1: return Int(bytes[entry.valueStart])
        case 3: return Self.read(bytes, entry.valueStart, 2, littleEndian)
        case 4: return Self.read(bytes, entry.valueStart, 4, littleEndian)
        default: return nil
        }
    }

    /// The values of an unsigned RATIONAL entry; nil if any denominator is zero.
    func rationals(_ entry: Entry) -> [Double]? {
        guard entry.type == 5 else { return nil }
        var values: [Double] = []
        for index in 0..<entry.count {
            let at = entry.valueStart + index * 8
            guard let numerator = Self.read(bytes, at, 4, littleEndian),
                let denominator = Self.read(bytes, at + 4, 4, littleEndian), denominator != 0
            else { return nil }
            values.append(Double(numerator) / Double(denominator))
        }
        return values
    }

    /// The raw bytes of an ASCII (2) or UTF-8 (129, EXIF 3.0) entry.
    func text(_ entry: Entry) -> ArraySlice<UInt8>? {
        guard entry.type == 2 || entry.type == 129 else { return nil }
        return bytes[entry.valueStart..<entry.valueStart + entry.count]
    }

    /// An unsigned integer at an offset relative to the TIFF start, if it lies inside the data.
    private func unsigned(at offset: Int, size: Int) -> Int? {
        guard offset >= 0, offset + size <= range.count else { return nil }
        return Self.read(bytes, range.lowerBound + offset, size, littleEndian)
    }

    private static func read(_ bytes: [UInt8], _ at: Int, _ size: Int, _ littleEndian: Bool) -> Int? {
        guard at >= 0, at + size <= bytes.count else { return nil }
        var value = 0
        for index in 0..<size {
            let byte = Int(bytes[littleEndian ? at + size - 1 - index : at + index])
            value = value << 8 | byte
        }
        return value
    }

    /// Bytes per value of a TIFF field type, 0 for unknown types.
    private static func unitSize(_ type: Int) -> Int {
        switch type {
        case 1, 2, 6, 7, 129: return 1
        case 3, 8: return 2
        case 4, 9, 11: return 4
        case 5, 10, 12: return 8
        default: return 0
        }
    }
}
