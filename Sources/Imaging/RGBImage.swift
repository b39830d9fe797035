/// 8-bit RGB pixels, row-major, no padding: pixel `(x, y)` starts at `(y * width + x) * 3`.
///
/// A plain value so images can cross task boundaries freely; the transforms return new images.
public struct RGBImage: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// `width * height * 3` bytes, R, G, B per pixel.
    public var pixels: [UInt8]

    /// Wraps existing pixels. Transforms check that `pixels.count == width * height * 3` and trap otherwise,
    /// because a mismatch is a programming error, not bad input.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image filled with one colour.
    public init(width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8) {
        precondition(width >= 0 && height >= 0, "negative image size")
        let count = width * height * 3
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var i = 0
            while i < count {
                buffer[i] = red
                buffer[i + 1] = green
                buffer[i + 2] = blue
                i += 3
            }
            initialized = count
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// The R, G, B bytes of pixel `(x, y)`.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let i = (y * width + x) * 3
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }

    func checkLayout() {
        precondition(
            width >= 0 && height >= 0 && pixels.count == width * height * 3,
            "RGBImage has \(pixels.count) bytes for \(width)×\(height) pixels"
        )
    }
}
