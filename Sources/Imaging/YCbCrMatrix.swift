/// The YCbCr-to-RGB matrix of an H.273 colour description, as per-sample tables in 16.16 fixed point.
///
/// Covers the matrices phones and encoders write (BT.709, BT.601, BT.2020, FCC, SMPTE 240M), in full or limited
/// ("video") range. Anything else (GBR, YCgCo, ICtCp, the chromaticity-derived matrices) is left to libheif's own
/// conversion.
struct YCbCrMatrix: Equatable {
    /// Five tables of 256 entries: luma (with the rounding half), Cr's share of red, Cb's and Cr's of green,
    /// Cb's of blue.
    let tables: [Int32]

    /// - Parameters:
    ///   - matrixCoefficients: H.273's `MatrixCoefficients`.
    ///   - fullRange: samples span 0...255 rather than 16...235 (luma) and 16...240 (chroma).
    init?(matrixCoefficients: Int, fullRange: Bool) {
        let kr: Double
        let kb: Double
        switch matrixCoefficients {
        case 1: (kr, kb) = (0.2126, 0.0722)
        case 5, 6: (kr, kb) = (0.299, 0.114)
        case 4: (kr, kb) = (0.30, 0.11)
        case 7: (kr, kb) = (0.212, 0.087)
        case 9, 10: (kr, kb) = (0.2627, 0.0593)
        default: return nil
        }
        let lumaScale = fullRange ? 1.0 : 255.0 / 219.0
        let chromaScale = fullRange ? 1.0 : 255.0 / 224.0
        let lumaOffset = fullRange ? 0.0 : 16.0
        func table(_ value: (Double) -> Double) -> [Int32] {
            (0..<256).map { Int32((value(Double($0)) * 65_536).rounded()) }
        }
        let luma = table { ($0 - lumaOffset) * lumaScale + 0.5 }
        let kg = 1 - kr - kb
        tables =
            luma
            + table { 2 * (1 - kr) * ($0 - 128) * chromaScale }
            + table { -2 * kb * (1 - kb) / kg * ($0 - 128) * chromaScale }
            + table { -2 * kr * (1 - kr) / kg * ($0 - 128) * chromaScale }
            + table { 2 * (1 - kb) * ($0 - 128) * chromaScale }
    }
}

extension YCbCrMatrix {
    /// Converts one row of 8-bit YCbCr samples into red, green and blue planes; with `chromaShift` 1 each chroma
    /// sample serves two luma samples (4:2:0 and 4:2:2, nearest neighbour as libheif converts), with 0 one (4:4:4).
    func convertRow(
        luma y: UnsafePointer<UInt8>,
        cb u: UnsafePointer<UInt8>,
        cr v: UnsafePointer<UInt8>,
        chromaShift: Int,
        width: Int,
        into planes: (red: UnsafeMutablePointer<UInt8>, green: UnsafeMutablePointer<UInt8>, blue: UnsafeMutablePointer<UInt8>)
    ) {
        tables.withUnsafeBufferPointer { buffer in
            let luma = buffer.baseAddress!
            let crToRed = luma + 256
            let cbToGreen = luma + 512
            let crToGreen = luma + 768
            let cbToBlue = luma + 1024
            let (red, green, blue) = planes
            var x = 0
            while x < width {
                let c = x >> chromaShift
                let cbValue = Int(u[c])
                let crValue = Int(v[c])
                let l = luma[Int(y[x])]
                red[x] = Self.clamp(l &+ crToRed[crValue])
                green[x] = Self.clamp(l &+ cbToGreen[cbValue] &+ crToGreen[crValue])
                blue[x] = Self.clamp(l &+ cbToBlue[cbValue])
                x += 1
            }
        }
    }

    /// A 16.16 fixed-point value (rounding half included) clamped to a byte, without branches.
    @inline(__always)
    private static func clamp(_ value: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: min(max(value >> 16, 0), 255))
    }
}
