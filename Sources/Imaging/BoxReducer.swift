/// Shrinks an image by whole factors by averaging blocks of pixels.
///
/// Before a large reduction the Lanczos kernel would span dozens of source pixels per tap row; averaging first
/// (as Pillow's `reducing_gap` does) leaves Lanczos a ratio of 2–4 and costs about one addition per source sample,
/// with no visible difference.
enum BoxReducer {
    /// Averages `factorX × factorY` blocks; blocks on the right and bottom edges may be partial.
    static func reduce(_ source: RGBImage, factorX: Int, factorY: Int) -> RGBImage {
        let width = (source.width + factorX - 1) / factorX
        let height = (source.height + factorY - 1) / factorY
        let sourceRowLength = source.width * 3
        let rowLength = width * 3
        let sums = UnsafeMutablePointer<Int>.allocate(capacity: rowLength)
        defer { sums.deallocate() }
        let pixels = [UInt8](unsafeUninitializedCapacity: height * rowLength) { output, initialized in
            source.pixels.withUnsafeBufferPointer { input in
                let input = input.baseAddress!
                let output = output.baseAddress!
                var y = 0
                while y < height {
                    let firstRow = y * factorY
                    let rows = min(factorY, source.height - firstRow)
                    sums.initialize(repeating: 0, count: rowLength)
                    var row = 0
                    while row < rows {
                        addRow(
                            input + (firstRow + row) * sourceRowLength,
                            width: source.width,
                            factor: factorX,
                            to: sums
                        )
                        row += 1
                    }
                    let lastColumns = source.width - (width - 1) * factorX
                    average(
                        sums,
                        into: output + y * rowLength,
                        blocks: width,
                        full: factorX * rows,
                        last: lastColumns * rows
                    )
                    y += 1
                }
            }
            initialized = height * rowLength
        }
        return RGBImage(width: width, height: height, pixels: pixels)
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
