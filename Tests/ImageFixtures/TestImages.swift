public import Imaging

/// Synthetic images with known pixels.
public enum TestImages {
    /// A smooth gradient: red follows x, green follows y, blue is their mix, so every pixel is predictable and
    /// JPEG round trips stay accurate.
    public static func gradient(width: Int, height: Int) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        pixels.withUnsafeMutableBufferPointer { buffer in
            var p = buffer.baseAddress!
            var y = 0
            while y < height {
                let g = UInt8(y * 255 / max(1, height - 1))
                var x = 0
                while x < width {
                    let r = UInt8(x * 255 / max(1, width - 1))
                    p[0] = r
                    p[1] = g
                    p[2] = UInt8((Int(r) + Int(g)) / 2)
                    p += 3
                    x += 1
                }
                y += 1
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// Alternating black and white cells of `cell` pixels.
    public static func checker(width: Int, height: Int, cell: Int) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width where (x / cell + y / cell) % 2 == 0 {
                let i = (y * width + x) * 3
                pixels[i] = 255
                pixels[i + 1] = 255
                pixels[i + 2] = 255
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// Mean absolute difference per channel sample; the images must have the same size.
    public static func meanAbsoluteError(_ a: RGBImage, _ b: RGBImage) -> Double {
        precondition(a.width == b.width && a.height == b.height)
        // Pointers keep this fast in debug builds for multi-megapixel images.
        let total = a.pixels.withUnsafeBufferPointer { a in
            b.pixels.withUnsafeBufferPointer { b in
                var sum = 0
                var i = 0
                while i < a.count {
                    let difference = Int(a[i]) - Int(b[i])
                    sum += difference < 0 ? -difference : difference
                    i += 1
                }
                return sum
            }
        }
        return Double(total) / Double(max(1, a.pixels.count))
    }

    /// The largest per-channel difference between a pixel and an expected colour.
    public static func distance(_ pixel: (red: UInt8, green: UInt8, blue: UInt8), _ expected: (Int, Int, Int)) -> Int {
        max(
            abs(Int(pixel.red) - expected.0),
            abs(Int(pixel.green) - expected.1),
            abs(Int(pixel.blue) - expected.2)
        )
    }
}
