import Testing

@testable import Imaging

/// The HEVC decoder's YCbCr-to-RGB conversion against the equations of ITU-T H.273 (and BT.601/709/2020), computed
/// here in double precision.
struct YCbCrMatrixTests {
    /// Kr and Kb per MatrixCoefficients value (H.273 table 4).
    static let coefficients: [(matrix: Int, kr: Double, kb: Double)] = [
        (1, 0.2126, 0.0722), (4, 0.30, 0.11), (5, 0.299, 0.114), (6, 0.299, 0.114), (7, 0.212, 0.087),
        (9, 0.2627, 0.0593), (10, 0.2627, 0.0593),
    ]

    static func reference(_ y: Double, _ cb: Double, _ cr: Double, kr: Double, kb: Double, fullRange: Bool) -> [Int] {
        let luma = fullRange ? y : (y - 16) * 255 / 219
        let pb = (cb - 128) * (fullRange ? 1 : 255.0 / 224)
        let pr = (cr - 128) * (fullRange ? 1 : 255.0 / 224)
        let red = luma + 2 * (1 - kr) * pr
        let blue = luma + 2 * (1 - kb) * pb
        let green = (luma - kr * red - kb * blue) / (1 - kr - kb)
        return [red, green, blue].map { min(max(Int($0.rounded()), 0), 255) }
    }

    @Test("every covered matrix, full and limited range, matches H.273 to within one level", arguments: [true, false])
    func matchesEquations(fullRange: Bool) throws {
        // setup: every Y against a spread of chroma pairs, one row per pair.
        let samples = Array(stride(from: 0, through: 255, by: 1))
        let chroma = Array(stride(from: 0, through: 255, by: 17))
        for (matrixCoefficients, kr, kb) in Self.coefficients {
            let matrix = try #require(YCbCrMatrix(matrixCoefficients: matrixCoefficients, fullRange: fullRange))
            var worst = 0
            for cb in chroma {
                for cr in chroma {
                    let u = [UInt8](repeating: UInt8(cb), count: samples.count)
                    let v = [UInt8](repeating: UInt8(cr), count: samples.count)
                    let y = samples.map { UInt8($0) }
                    var red = [UInt8](repeating: 0, count: samples.count)
                    var green = red
                    var blue = red

                    // act: 4:4:4 layout, so each luma sample has its own chroma pair.
                    red.withUnsafeMutableBufferPointer { r in
                        green.withUnsafeMutableBufferPointer { g in
                            blue.withUnsafeMutableBufferPointer { b in
                                matrix.convertRow(
                                    luma: y, cb: u, cr: v, chromaShift: 0, width: samples.count,
                                    into: (r.baseAddress!, g.baseAddress!, b.baseAddress!)
                                )
                            }
                        }
                    }

                    // assert
                    for (index, value) in samples.enumerated() {
                        let expected = Self.reference(Double(value), Double(cb), Double(cr), kr: kr, kb: kb, fullRange: fullRange)
                        let got = [Int(red[index]), Int(green[index]), Int(blue[index])]
                        worst = max(worst, zip(expected, got).map { abs($0 - $1) }.max()!)
                    }
                }
            }
            #expect(worst <= 1, "matrix \(matrixCoefficients): off by up to \(worst)")
        }
    }

    @Test("4:2:0 and 4:2:2 rows share each chroma sample between two pixels")
    func chromaSharedByPairs() throws {
        let matrix = try #require(YCbCrMatrix(matrixCoefficients: 6, fullRange: true))
        let y: [UInt8] = [100, 100, 100, 100, 100]
        let u: [UInt8] = [128, 255, 0]
        let v: [UInt8] = [255, 128, 128]
        var red = [UInt8](repeating: 0, count: 5)
        var green = red
        var blue = red
        red.withUnsafeMutableBufferPointer { r in
            green.withUnsafeMutableBufferPointer { g in
                blue.withUnsafeMutableBufferPointer { b in
                    matrix.convertRow(luma: y, cb: u, cr: v, chromaShift: 1, width: 5, into: (r.baseAddress!, g.baseAddress!, b.baseAddress!))
                }
            }
        }
        let expected = [0, 0, 1, 1, 2].map { Self.reference(100, Double(u[$0]), Double(v[$0]), kr: 0.299, kb: 0.114, fullRange: true) }
        #expect((0..<5).map { [Int(red[$0]), Int(green[$0]), Int(blue[$0])] } == expected)
    }

    @Test("matrices it does not cover are left to libheif", arguments: [0, 2, 3, 8, 11, 12, 13, 14])
    func uncoveredMatrices(matrix: Int) {
        #expect(YCbCrMatrix(matrixCoefficients: matrix, fullRange: true) == nil)
    }

    @Test("a container's colour description is held only inside its scope")
    func containerColourScope() throws {
        #expect(ContainerColour.current == nil)
        let seen = try ContainerColour.holding(ContainerColour(matrixCoefficients: 1, fullRange: false)) { () throws(ImagingError) in
            ContainerColour.current.map { [$0.matrixCoefficients, $0.fullRange ? 1 : 0] }
        }
        #expect(seen == [1, 0])
        let none = try ContainerColour.holding(nil) { () throws(ImagingError) in ContainerColour.current == nil }
        #expect(none)
        #expect(ContainerColour.current == nil)
    }
}
