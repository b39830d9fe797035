/// Pixel-format conversions the codecs do not do for us.
enum ColorConversion {
    /// Converts CMYK as stored by Adobe applications (inverted: 255 means no ink) to RGB.
    ///
    /// libjpeg hands the samples over untouched, and nearly every CMYK JPEG in the wild follows Adobe's inverted
    /// convention, so with `c`, `k` already inverted the naive formula `R = (255 - C)(255 - K) / 255` becomes
    /// `c * k / 255`. Without an ICC transform this is approximate, as in browsers and Pillow.
    static func adobeCMYKToRGB(
        _ cmyk: UnsafePointer<UInt8>,
        into rgb: UnsafeMutablePointer<UInt8>,
        pixelCount: Int
    ) {
        var s = cmyk
        var d = rgb
        let end = s + pixelCount * 4
        while s < end {
            let k = UInt32(s[3])
            d[0] = divideBy255(UInt32(s[0]) * k)
            d[1] = divideBy255(UInt32(s[1]) * k)
            d[2] = divideBy255(UInt32(s[2]) * k)
            s += 4
            d += 3
        }
    }

    /// Flattens non-premultiplied RGBA onto white in place, compacting it to RGB at the front of the buffer.
    ///
    /// Blends in sRGB space, as browsers and a canvas filled white do, rather than in linear light.
    static func flattenRGBAOnWhite(_ buffer: UnsafeMutableBufferPointer<UInt8>, pixelCount: Int) {
        guard var s = buffer.baseAddress, var d = buffer.baseAddress else { return }
        let end = s + pixelCount * 4
        while s < end {
            let alpha = UInt32(s[3])
            let white = 255 * (255 - alpha)
            // Reads precede writes and d never overtakes s, so compaction in place is safe.
            let r = UInt32(s[0])
            let g = UInt32(s[1])
            let b = UInt32(s[2])
            d[0] = divideBy255(r * alpha + white)
            d[1] = divideBy255(g * alpha + white)
            d[2] = divideBy255(b * alpha + white)
            s += 4
            d += 3
        }
    }

    /// Rounded `value / 255` for `value <= 255 * 255`, without a division.
    @inline(__always)
    static func divideBy255(_ value: UInt32) -> UInt8 {
        let v = value + 128
        return UInt8(truncatingIfNeeded: (v + (v >> 8)) >> 8)
    }
}
