extension RGBImage {
    /// The pixels inside a rectangle. The rectangle is clipped to the image; the clipped part must not be empty.
    public func cropped(x: Int, y: Int, width: Int, height: Int) -> RGBImage {
        checkLayout()
        let left = max(0, x)
        let top = max(0, y)
        let right = min(self.width, x + width)
        let bottom = min(self.height, y + height)
        precondition(left < right && top < bottom, "crop \(width)×\(height) at (\(x), \(y)) misses the image")
        if left == 0 && top == 0 && right == self.width && bottom == self.height { return self }
        let rowBytes = (right - left) * 3
        var pixels: [UInt8] = []
        pixels.reserveCapacity(rowBytes * (bottom - top))
        for row in top..<bottom {
            let start = (row * self.width + left) * 3
            pixels.append(contentsOf: self.pixels[start..<start + rowBytes])
        }
        return RGBImage(width: right - left, height: bottom - top, pixels: pixels)
    }

    /// The largest square centred in the image (for avatars and square thumbnails).
    public func centerSquare() -> RGBImage {
        let side = min(width, height)
        return cropped(x: (width - side) / 2, y: (height - side) / 2, width: side, height: side)
    }

    /// Applies an EXIF orientation (tag 0x0112) to the pixels, so the result displays upright with no tag.
    ///
    /// 2 mirrors horizontally, 3 rotates 180°, 4 mirrors vertically, 5 transposes, 6 rotates 90° clockwise,
    /// 7 transverses, 8 rotates 90° counter-clockwise; 1 and any other value return the image unchanged.
    public func oriented(exifOrientation: Int) -> RGBImage {
        checkLayout()
        guard (2...8).contains(exifOrientation), width > 0, height > 0 else { return self }
        let w = width
        let h = height
        let swapsAxes = exifOrientation >= 5
        let outWidth = swapsAxes ? h : w
        let outHeight = swapsAxes ? w : h
        // Each destination row reads the source along a straight line: where it starts (as a function of the
        // destination row) and how far apart, in bytes, consecutive pixels are.
        let rowStride = w * 3
        let start: (Int) -> Int
        let step: Int
        switch exifOrientation {
        case 2: (start, step) = ({ y in y * rowStride + (w - 1) * 3 }, -3)
        case 3: (start, step) = ({ y in (h - 1 - y) * rowStride + (w - 1) * 3 }, -3)
        case 4: (start, step) = ({ y in (h - 1 - y) * rowStride }, 3)
        case 5: (start, step) = ({ y in y * 3 }, rowStride)
        case 6: (start, step) = ({ y in (h - 1) * rowStride + y * 3 }, -rowStride)
        case 7: (start, step) = ({ y in (h - 1) * rowStride + (w - 1 - y) * 3 }, -rowStride)
        default: (start, step) = ({ y in (w - 1 - y) * 3 }, rowStride)
        }
        let pixels = [UInt8](unsafeUninitializedCapacity: w * h * 3) { output, initialized in
            self.pixels.withUnsafeBufferPointer { input in
                var d = output.baseAddress!
                var y = 0
                while y < outHeight {
                    var s = input.baseAddress! + start(y)
                    var x = 0
                    while x < outWidth {
                        d[0] = s[0]
                        d[1] = s[1]
                        d[2] = s[2]
                        d += 3
                        s += step
                        x += 1
                    }
                    y += 1
                }
            }
            initialized = w * h * 3
        }
        return RGBImage(width: outWidth, height: outHeight, pixels: pixels)
    }
}
