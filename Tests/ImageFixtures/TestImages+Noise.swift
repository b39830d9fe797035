public import Imaging

extension TestImages {
    /// A gradient with seeded per-pixel noise of ±`amplitude`: photo-like detail that JPEG cannot compress away,
    /// so byte limits bite at realistic sizes.
    public static func noisy(width: Int, height: Int, amplitude: Int, seed: UInt64 = 7) -> RGBImage {
        var image = gradient(width: width, height: height)
        var state = seed
        let span = UInt64(2 * amplitude + 1)
        image.pixels.withUnsafeMutableBufferPointer { buffer in
            var p = buffer.baseAddress!
            let end = p + buffer.count
            while p < end {
                // xorshift64: cheap enough for 36 million samples in a debug build.
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                let value = Int(p.pointee) + Int(state % span) - amplitude
                p.pointee = UInt8(value < 0 ? 0 : value > 255 ? 255 : value)
                p += 1
            }
        }
        return image
    }

    /// Four solid quadrants (red, green / blue, white), so any flip or rotation is visible at four sample points.
    public static func quadrants(width: Int, height: Int) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let colour = quadrantColour(right: x >= width / 2, bottom: y >= height / 2)
                let i = (y * width + x) * 3
                pixels[i] = UInt8(colour.0)
                pixels[i + 1] = UInt8(colour.1)
                pixels[i + 2] = UInt8(colour.2)
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    public static func quadrantColour(right: Bool, bottom: Bool) -> (Int, Int, Int) {
        switch (right, bottom) {
        case (false, false): (255, 0, 0)
        case (true, false): (0, 255, 0)
        case (false, true): (0, 0, 255)
        case (true, true): (255, 255, 255)
        }
    }
}

extension TestImages {
    /// `quadrants` built a row at a time, fast enough in a debug build for 48-megapixel images.
    public static func largeQuadrants(width: Int, height: Int) -> RGBImage {
        let rowLength = width * 3
        func row(bottom: Bool) -> [UInt8] {
            (0..<width).flatMap { x -> [UInt8] in
                let c = quadrantColour(right: x >= width / 2, bottom: bottom)
                return [UInt8(c.0), UInt8(c.1), UInt8(c.2)]
            }
        }
        let top = row(bottom: false)
        let bottom = row(bottom: true)
        var pixels = [UInt8](repeating: 0, count: rowLength * height)
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<height {
                let source = y >= height / 2 ? bottom : top
                source.withUnsafeBufferPointer { (buffer.baseAddress! + y * rowLength).update(from: $0.baseAddress!, count: rowLength) }
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// Four flat patches (top-left, top-right, bottom-left, bottom-right) of the given colours.
    public static func patches(width: Int, height: Int, _ colours: [(Int, Int, Int)]) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let c = colours[(y >= height / 2 ? 2 : 0) + (x >= width / 2 ? 1 : 0)]
                let i = (y * width + x) * 3
                pixels[i] = UInt8(c.0)
                pixels[i + 1] = UInt8(c.1)
                pixels[i + 2] = UInt8(c.2)
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// A PNG of `image` (RGB, stored deflate) with extra chunks inserted after IHDR.
    public static func png(_ image: RGBImage, chunks: [(String, [UInt8])] = []) -> [UInt8] {
        let rows = (0..<image.height).map { y in Array(image.pixels[(y * image.width * 3)..<((y + 1) * image.width * 3)]) }
        let plain = PNGBuilder.png(width: image.width, height: image.height, colorType: .rgb, rows: rows)
        return Array(plain[0..<33]) + chunks.flatMap { PNGBuilder.chunk($0.0, $0.1) } + Array(plain[33...])
    }
}
