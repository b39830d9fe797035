/// Separable Lanczos-3 resampling that streams through the source rows once (after `BoxReducer` for large
/// reductions), so a decoder that produces rows (PNG) never needs a full-size buffer.
///
/// Source rows are filtered horizontally into a small ring (as many rows as the vertical kernel is tall), and each
/// destination row is filtered vertically out of that ring. Compared with a full intermediate image this keeps the
/// working set in cache, which `platform-notes.md` measured at about twice the speed. Hot loops use raw pointers,
/// `while`, hoisted locals, concrete integer conversions and four-row blending, because debug builds (which the
/// test suites use) pay for every generic call, struct copy and pass over memory.
enum Resampler {
    static func resample(_ source: RGBImage, width: Int, height: Int) -> RGBImage {
        do {
            return try source.withRows { rows throws(ImagingError) in try resample(rows, width: width, height: height) }
        } catch {
            // Rows held in memory never fail to read.
            preconditionFailure("resampling an in-memory image failed: \(error)")
        }
    }

    /// Reads `source` once, top to bottom, and returns it resampled to `width × height`.
    static func resample(_ source: any RowSource, width: Int, height: Int) throws(ImagingError) -> RGBImage {
        if width == source.width && height == source.height { return try source.collect() }
        // Average whole blocks first when shrinking a lot, leaving Lanczos a ratio of at least 2.
        let factorX = max(1, source.width / (2 * width))
        let factorY = max(1, source.height / (2 * height))
        guard factorX > 1 || factorY > 1 else {
            return try lanczos(
                source,
                spanX: Double(source.width),
                spanY: Double(source.height),
                width: width,
                height: height
            )
        }
        let reduced = BoxReducer(source, factorX: factorX, factorY: factorY)
        return try lanczos(
            reduced,
            spanX: Double(source.width) / Double(factorX),
            spanY: Double(source.height) / Double(factorY),
            width: width,
            height: height
        )
    }

    private static func lanczos(
        _ source: any RowSource,
        spanX: Double,
        spanY: Double,
        width: Int,
        height: Int
    ) throws(ImagingError) -> RGBImage {
        let horizontal = ResampleAxis(sourceCount: source.width, destinationCount: width, sourceSpan: spanX)
        let vertical = ResampleAxis(sourceCount: source.height, destinationCount: height, sourceSpan: spanY)
        let rowLength = width * 3
        let rowsNeeded = vertical.starts[height - 1] + vertical.counts[height - 1]
        let stage = HorizontalStage(source: source, axis: horizontal, window: vertical.stride, rowsNeeded: rowsNeeded)
        defer { stage.finish() }
        let sum = UnsafeMutablePointer<Float>.allocate(capacity: rowLength)
        defer { sum.deallocate() }
        var failure: ImagingError?
        let pixels = [UInt8](unsafeUninitializedCapacity: height * rowLength) { output, initialized in
            let output = output.baseAddress!
            var y = 0
            while y < height {
                let first = vertical.starts[y]
                let count = vertical.counts[y]
                do throws(ImagingError) {
                    try stage.need(first + count, keepingFrom: first)
                } catch {
                    failure = error
                    initialized = 0
                    return
                }
                let weights = vertical.weights + y * vertical.stride
                var k = 0
                while k < count {
                    let taps = min(4, count - k)
                    // Unused slots repeat a row with weight 0, so one loop body serves every tap count.
                    let r0 = stage.row(first + k)
                    let r1 = stage.row(first + k + min(1, taps - 1))
                    let r2 = stage.row(first + k + min(2, taps - 1))
                    let r3 = stage.row(first + k + min(3, taps - 1))
                    let w0 = weights[k]
                    let w1 = taps > 1 ? weights[k + 1] : 0
                    let w2 = taps > 2 ? weights[k + 2] : 0
                    let w3 = taps > 3 ? weights[k + 3] : 0
                    var i = 0
                    if k == 0 {
                        while i < rowLength {
                            sum[i] = w0 * r0[i] + w1 * r1[i] + w2 * r2[i] + w3 * r3[i]
                            i += 1
                        }
                    } else {
                        while i < rowLength {
                            sum[i] += w0 * r0[i] + w1 * r1[i] + w2 * r2[i] + w3 * r3[i]
                            i += 1
                        }
                    }
                    k += taps
                }
                store(sum, into: output + y * rowLength, count: rowLength)
                y += 1
            }
            initialized = height * rowLength
        }
        if let failure { throw failure }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// Converts bytes to floats once per source row rather than once per tap.
    static func widen(
        _ source: UnsafePointer<UInt8>,
        into destination: UnsafeMutablePointer<Float>,
        count: Int
    ) {
        var i = 0
        while i < count {
            destination[i] = Float(Int(source[i]))
            i += 1
        }
    }

    /// Filters one row of RGB floats horizontally. (A SIMD4 per pixel made the debug builds the tests use about
    /// three times slower, generic SIMD operations being calls there; its release gain was within this machine's
    /// noise.)
    static func filterRow(
        _ source: UnsafePointer<Float>,
        into destination: UnsafeMutablePointer<Float>,
        axis: ResampleAxis
    ) {
        let starts = axis.starts
        let counts = axis.counts
        let weights = axis.weights
        let stride = axis.stride
        let destinationCount = axis.destinationCount
        var d = destination
        var x = 0
        while x < destinationCount {
            var p = source + starts[x] * 3
            var w = UnsafePointer(weights + x * stride)
            let end = w + counts[x]
            var r: Float = 0
            var g: Float = 0
            var b: Float = 0
            while w < end {
                let weight = w.pointee
                r += weight * p[0]
                g += weight * p[1]
                b += weight * p[2]
                p += 3
                w += 1
            }
            d[0] = r
            d[1] = g
            d[2] = b
            d += 3
            x += 1
        }
    }

    /// Rounds (to nearest) and clamps floats to bytes without a trapping conversion: adding 1.5 × 2^23 to a value
    /// in 0...255 leaves its rounded integer in the low bits of the float's representation. Branch-free, so the
    /// compiler vectorises the loop.
    private static func store(_ sum: UnsafePointer<Float>, into destination: UnsafeMutablePointer<UInt8>, count: Int) {
        var i = 0
        while i < count {
            let value = min(max(sum[i], 0), 255) + 12_582_912
            destination[i] = UInt8(truncatingIfNeeded: value.bitPattern)
            i += 1
        }
    }
}
