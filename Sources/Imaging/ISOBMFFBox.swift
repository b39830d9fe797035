/// One box of an ISO base media file (ISO/IEC 14496-12 §4.2): its type and where its payload lies in the file.
struct ISOBMFFBox {
    let type: FourCC
    /// After the header (size, type, a 64-bit size, a `uuid`'s extended type); a full box's version and flags
    /// are the payload's first four bytes.
    let payload: Range<Int>
}

/// A box type, as its four bytes read as a big-endian number.
struct FourCC: Hashable, CustomStringConvertible {
    let value: UInt32

    init(_ value: UInt32) {
        self.value = value
    }

    init(_ text: StaticString) {
        precondition(text.utf8CodeUnitCount == 4, "a four-character code")
        value = (0..<4).reduce(0) { $0 << 8 | UInt32(text.utf8Start[$1]) }
    }

    var description: String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) }, as: UTF8.self)
    }

    static let meta = FourCC("meta")
    static let pitm = FourCC("pitm")
    static let iinf = FourCC("iinf")
    static let infe = FourCC("infe")
    static let iloc = FourCC("iloc")
    static let idat = FourCC("idat")
    static let iprp = FourCC("iprp")
    static let ipco = FourCC("ipco")
    static let ipma = FourCC("ipma")
    static let iref = FourCC("iref")
    static let dimg = FourCC("dimg")
    static let auxl = FourCC("auxl")
    static let ispe = FourCC("ispe")
    static let hvcC = FourCC("hvcC")
    static let av1C = FourCC("av1C")
    static let uuid = FourCC("uuid")
    static let hvc1 = FourCC("hvc1")
    static let av01 = FourCC("av01")
    static let grid = FourCC("grid")
    static let iovl = FourCC("iovl")
    static let iden = FourCC("iden")
}

/// Big-endian reads within one range of a file, each checked: a read past the range's end throws `.corrupt`
/// naming what was being read, so no hostile length reads outside the range.
struct BoxReader {
    let bytes: UnsafeRawBufferPointer
    let format: ImageFormat
    private(set) var position: Int
    let end: Int

    init(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, format: ImageFormat) {
        self.bytes = bytes
        self.format = format
        position = max(0, min(range.lowerBound, bytes.count))
        end = max(position, min(range.upperBound, bytes.count))
    }

    var remaining: Int { end - position }

    /// An unsigned number of `size` bytes (0, 1, 2, 4 or 8); eight-byte values over `Int.max` are refused.
    mutating func uint(_ size: Int, _ what: StaticString) throws(ImagingError) -> Int {
        guard size <= remaining else { throw .corrupt(format, "\(what) runs past the end of its box") }
        var value: UInt64 = 0
        for index in 0..<size {
            value = value << 8 | UInt64(bytes[position + index])
        }
        position += size
        guard value <= UInt64(Int.max) else { throw .corrupt(format, "\(what) is out of range") }
        return Int(value)
    }

    mutating func skip(_ count: Int, _ what: StaticString) throws(ImagingError) {
        guard count >= 0, count <= remaining else { throw .corrupt(format, "\(what) runs past the end of its box") }
        position += count
    }

    /// The next box in the range, or nil at its end. A size of 0 runs to the end of the range, 1 is followed by a
    /// 64-bit size; a box past the range's end is corrupt, as libheif also finds.
    mutating func nextBox() throws(ImagingError) -> ISOBMFFBox? {
        guard remaining > 0 else { return nil }
        let start = position
        var size = try uint(4, "a box header")
        let type = FourCC(UInt32(try uint(4, "a box header")))
        if size == 1 {
            size = try uint(8, "a box's 64-bit size")
        } else if size == 0 {
            size = end - start
        }
        if type == .uuid { try skip(16, "a uuid box's type") }
        guard size >= position - start, size <= end - start else {
            throw .corrupt(format, "the \(type) box's size \(size) does not fit its container")
        }
        let payload = position..<start + size
        position = start + size
        return ISOBMFFBox(type: type, payload: payload)
    }

    /// The boxes of the range, at most `limit` of them; a file with more is not one we read.
    mutating func boxes(limit: Int) throws(ImagingError) -> [ISOBMFFBox] {
        var boxes: [ISOBMFFBox] = []
        while let box = try nextBox() {
            guard boxes.count < limit else { throw .unsupported(format, "has more parts than we can check") }
            boxes.append(box)
        }
        return boxes
    }
}

/// An item's data: its extents in order, as ranges of the file, read a few bytes at a time without copying the
/// rest.
struct ByteRanges {
    let bytes: UnsafeRawBufferPointer
    let ranges: [Range<Int>]
    /// Where each range starts in the joined data, for finding an offset's range by bisection.
    private let starts: [Int]
    let count: Int

    /// `ranges` must lie within `bytes`.
    init(_ bytes: UnsafeRawBufferPointer, _ ranges: [Range<Int>]) {
        precondition(ranges.allSatisfy { $0.lowerBound >= 0 && $0.upperBound <= bytes.count }, "ranges within the file")
        self.bytes = bytes
        self.ranges = ranges
        var starts: [Int] = []
        var count = 0
        for range in ranges {
            starts.append(count)
            count += range.count
        }
        self.starts = starts
        self.count = count
    }

    /// Up to `length` bytes from `offset` of the joined ranges; fewer at the end.
    func read(_ offset: Int, _ length: Int) -> [UInt8] {
        var out: [UInt8] = []
        guard offset >= 0, offset < count, length > 0 else { return out }
        // The last range starting at or before `offset` (empty ranges share a start with the next one).
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        var index = low
        var skip = offset - starts[index]
        while index < ranges.count, out.count < length {
            let range = ranges[index]
            if skip < range.count {
                let start = range.lowerBound + skip
                let take = min(range.upperBound - start, length - out.count)
                out.append(contentsOf: bytes[start..<start + take])
            }
            skip = 0
            index += 1
        }
        return out
    }
}
