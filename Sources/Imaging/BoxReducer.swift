/// Shrinks an image by whole factors by averaging blocks of pixels, one output row at a time.
///
/// Before a large reduction the Lanczos kernel would span dozens of source pixels per tap row; averaging first
/// (as Pillow's `reducing_gap` does) leaves Lanczos a ratio of 2–4 and costs about one addition per source sample,
/// with no visible difference. Blocks on the right and bottom edges may be partial.
final class BoxReducer: RowSource {
    let width: Int
    let height: Int
    private let source: any RowSource
    private let factorX: Int
    private let factorY: Int
    private let sums: UnsafeMutablePointer<Int>
    private let row: UnsafeMutablePointer<UInt8>
    private var next = 0

    init(_ source: any RowSource, factorX: Int, factorY: Int) {
        self.source = source
        self.factorX = factorX
        self.factorY = factorY
        width = (source.width + factorX - 1) / factorX
        height = (source.height + factorY - 1) / factorY
        sums = .allocate(capacity: width * 3)
        row = .allocate(capacity: width * 3)
    }

    deinit {
        sums.deallocate()
        row.deallocate()
    }

    var decodesAsItGoes: Bool { source.decodesAsItGoes }

    func nextRow() throws(ImagingError) -> UnsafePointer<UInt8> {
        let rowLength = width * 3
        let rows = min(factorY, source.height - next * factorY)
        next += 1
        sums.initialize(repeating: 0, count: rowLength)
        var r = 0
        while r < rows {
            Self.addRow(try source.nextRow(), width: source.width, factor: factorX, to: sums)
            r += 1
        }
        let lastColumns = source.width - (width - 1) * factorX
        Self.average(sums, into: row, blocks: width, full: factorX * rows, last: lastColumns * rows)
        return UnsafePointer(row)
    }

    /// Adds each run of `factor` source pixels of one row into its block's sums.
    private static func addRow(
        _ row: UnsafePointer<UInt8>,
        width: Int,
        factor: Int,
        to sums: UnsafeMutablePointer<Int>
    ) {
        var s = row
        let end = row + width * 3
        var d = sums
        while s < end {
            let blockEnd = min(s + factor * 3, end)
            var r = d[0]
            var g = d[1]
            var b = d[2]
            while s < blockEnd {
                r += Int(s[0])
                g += Int(s[1])
                b += Int(s[2])
                s += 3
            }
            d[0] = r
            d[1] = g
            d[2] = b
            d += 3
        }
    }

    /// Divides block sums by their pixel counts, rounding; only the last block in a row may be narrower.
    private static func average(
        _ sums: UnsafePointer<Int>,
        into destination: UnsafeMutablePointer<UInt8>,
        blocks: Int,
        full: Int,
        last: Int
    ) {
        var i = 0
        let count = blocks * 3
        while i < count {
            let n = i < count - 3 ? full : last
            destination[i] = UInt8(truncatingIfNeeded: (sums[i] + n / 2) / n)
            i += 1
        }
    }
}
