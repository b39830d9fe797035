import Foundation

/// Writes minimal ICC v2 display profiles (matrix and parametric curves) byte by byte from ICC.1:2001-04, so the
/// colour tests do not depend on Little CMS to make the profiles they check Little CMS with.
public enum ICCBuilder {
    public typealias XY = (x: Double, y: Double)

    public static let d65: XY = (0.3127, 0.3290)
    /// Display P3 (SMPTE EG 432-1 primaries, D65 white, the sRGB curve), as phones tag their photos.
    public static let displayP3: [XY] = [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)]
    public static let sRGB: [XY] = [(0.640, 0.330), (0.300, 0.600), (0.150, 0.060)]

    /// A display profile for RGB with the given primaries and D65 white, with the sRGB curve (IEC 61966-2-1).
    public static func profile(primaries: [XY], description: String) -> [UInt8] {
        // ICC colorants are relative to the D50 connection space: adapt D65 to D50 with Bradford (ICC.1 Annex E).
        let colorants = ColourMath.multiply(ColourMath.bradford(from: d65), ColourMath.rgbToXYZ(primaries: primaries, white: d65))
        let tags: [(String, [UInt8])] = [
            ("desc", textDescription(description)),
            ("wtpt", xyz([0.9642, 1.0, 0.8249])),
            ("rXYZ", xyz([colorants[0][0], colorants[1][0], colorants[2][0]])),
            ("gXYZ", xyz([colorants[0][1], colorants[1][1], colorants[2][1]])),
            ("bXYZ", xyz([colorants[0][2], colorants[1][2], colorants[2][2]])),
            ("rTRC", sRGBCurve()),
            ("gTRC", sRGBCurve()),
            ("bTRC", sRGBCurve()),
        ]
        var data: [UInt8] = []
        var table: [UInt8] = be32(tags.count)
        let dataStart = 128 + 4 + 12 * tags.count
        for (signature, body) in tags {
            table += Array(signature.utf8) + be32(dataStart + data.count) + be32(body.count)
            data += body
            while data.count % 4 != 0 { data.append(0) }
        }
        let size = dataStart + data.count
        var header = be32(size) + Array("lcms".utf8) + [0x02, 0x10, 0, 0] + Array("mntrRGB XYZ ".utf8)
        header += [UInt8](repeating: 0, count: 12) + Array("acsp".utf8) + [UInt8](repeating: 0, count: 24)
        header += be32(0)  // perceptual intent
        header += xyzNumbers([0.9642, 1.0, 0.8249])
        header += [UInt8](repeating: 0, count: 128 - header.count)
        return header + table + data
    }

    /// Splits a profile into APP2 `ICC_PROFILE` segments of at most `chunk` bytes each (ICC.1 Annex B.4).
    public static func app2Segments(_ profile: [UInt8], chunk: Int) -> [UInt8] {
        let pieces = stride(from: 0, to: profile.count, by: chunk).map { Array(profile[$0..<min($0 + chunk, profile.count)]) }
        var out: [UInt8] = []
        for (index, piece) in pieces.enumerated() {
            let payload = Array("ICC_PROFILE".utf8) + [0, UInt8(index + 1), UInt8(pieces.count)] + piece
            out += [0xFF, 0xE2, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        return out
    }

    /// A PNG iCCP chunk body: name, NUL, compression method 0, zlib stream.
    public static func iCCP(_ profile: [UInt8]) -> [UInt8] {
        Array("P3".utf8) + [0, 0] + PNGBuilder.zlibStored(profile)
    }

    private static func xyz(_ values: [Double]) -> [UInt8] {
        Array("XYZ ".utf8) + [0, 0, 0, 0] + xyzNumbers(values)
    }

    private static func xyzNumbers(_ values: [Double]) -> [UInt8] {
        values.flatMap { be32(Int(($0 * 65_536).rounded()) & 0xFFFF_FFFF) }
    }

    /// `parametricCurveType` function 3: Y = (aX + b)^g for X >= d, cX below.
    private static func sRGBCurve() -> [UInt8] {
        let parameters = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
        return Array("para".utf8) + [0, 0, 0, 0, 0, 3, 0, 0] + xyzNumbers(parameters)
    }

    private static func textDescription(_ text: String) -> [UInt8] {
        let ascii = Array(text.utf8) + [0]
        return Array("desc".utf8) + [0, 0, 0, 0] + be32(ascii.count) + ascii + be32(0) + be32(0) + [0, 0, 0]
            + [UInt8](repeating: 0, count: 67)
    }

    private static func be32(_ value: Int) -> [UInt8] {
        PNGBuilder.bigEndian(value)
    }
}

/// The colour arithmetic the tests use as their reference, written from the standard formulas (IEC 61966-2-1,
/// SMPTE RP 177 for the RGB-to-XYZ matrix, Bradford adaptation), independent of Little CMS.
public enum ColourMath {
    public typealias Matrix = [[Double]]

    public static func rgbToXYZ(primaries: [ICCBuilder.XY], white: ICCBuilder.XY) -> Matrix {
        let columns = primaries.map { [$0.x / $0.y, 1, (1 - $0.x - $0.y) / $0.y] }
        let p: Matrix = (0..<3).map { row in columns.map { $0[row] } }
        let w = [white.x / white.y, 1, (1 - white.x - white.y) / white.y]
        let s = apply(inverse(p), w)
        return p.map { row in (0..<3).map { row[$0] * s[$0] } }
    }

    /// Bradford chromatic adaptation from `white` to D50.
    public static func bradford(from white: ICCBuilder.XY) -> Matrix {
        let b: Matrix = [[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]]
        let source = apply(b, [white.x / white.y, 1, (1 - white.x - white.y) / white.y])
        let target = apply(b, [0.9642, 1.0, 0.8249])
        let scale: Matrix = (0..<3).map { i in (0..<3).map { j in i == j ? target[i] / source[i] : 0 } }
        return multiply(inverse(b), multiply(scale, b))
    }

    /// Encoded sRGB bytes of a colour given as encoded bytes in a space with `primaries` and the sRGB curve.
    public static func convert(_ rgb: (Int, Int, Int), from primaries: [ICCBuilder.XY], to target: [ICCBuilder.XY]) -> (Int, Int, Int) {
        let m = multiply(inverse(rgbToXYZ(primaries: target, white: ICCBuilder.d65)), rgbToXYZ(primaries: primaries, white: ICCBuilder.d65))
        let linear = apply(m, [rgb.0, rgb.1, rgb.2].map { decode(Double($0) / 255) })
        let out = linear.map { Int((encode(min(1, max(0, $0))) * 255).rounded()) }
        return (out[0], out[1], out[2])
    }

    public static func decode(_ v: Double) -> Double {
        v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    public static func encode(_ v: Double) -> Double {
        v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
    }

    public static func apply(_ m: Matrix, _ v: [Double]) -> [Double] {
        m.map { row in zip(row, v).reduce(0) { $0 + $1.0 * $1.1 } }
    }

    public static func multiply(_ a: Matrix, _ b: Matrix) -> Matrix {
        (0..<3).map { i in (0..<3).map { j in (0..<3).reduce(0) { $0 + a[i][$1] * b[$1][j] } } }
    }

    public static func inverse(_ m: Matrix) -> Matrix {
        let det =
            m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        let cofactor: (Int, Int) -> Double = { i, j in
            let rows = (0..<3).filter { $0 != i }
            let cols = (0..<3).filter { $0 != j }
            let minor = m[rows[0]][cols[0]] * m[rows[1]][cols[1]] - m[rows[0]][cols[1]] * m[rows[1]][cols[0]]
            return ((i + j) % 2 == 0 ? 1 : -1) * minor
        }
        return (0..<3).map { i in (0..<3).map { j in cofactor(j, i) / det } }
    }
}
