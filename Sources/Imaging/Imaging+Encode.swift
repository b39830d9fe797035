import CTurboJPEG

extension Imaging {
    /// Encodes RGB pixels as a baseline JPEG carrying no metadata beyond the JFIF APP0 segment libturbojpeg writes,
    /// so nothing from the original upload (EXIF, GPS, ICC, comments) can survive.
    /// - Parameters:
    ///   - image: the pixels to encode; must be at least 1×1.
    ///   - quality: 1–100; values outside are clamped, so a quality search may probe 0.
    ///   - subsampling420: 4:2:0 chroma (smaller, the norm for photos) or 4:4:4 (sharper colour edges).
    public static func encodeJPEG(
        _ image: RGBImage,
        quality: Int,
        subsampling420: Bool = true
    ) throws(ImagingError) -> [UInt8] {
        guard image.width > 0, image.height > 0 else {
            throw .invalidArgument("cannot encode a \(image.width)×\(image.height) image")
        }
        guard image.pixels.count == image.width * image.height * 3 else {
            throw .invalidArgument("\(image.pixels.count) bytes for \(image.width)×\(image.height) RGB pixels")
        }
        // libjpeg's own dimension limit; larger values would also overflow the Int32 parameters.
        guard image.width <= 65_500, image.height <= 65_500 else {
            throw .invalidArgument("\(image.width)×\(image.height) is larger than JPEG allows")
        }
        guard let handle = tjInitCompress() else {
            throw .encodingFailed("could not create a JPEG encoder: \(JPEGDecoder.errorMessage(nil))")
        }
        defer { tjDestroy(handle) }

        let subsampling = subsampling420 ? TJSAMP_420 : TJSAMP_444
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        // Freed on every path, including a failure after libturbojpeg allocated the buffer.
        defer { tjFree(output) }
        let status = image.pixels.withUnsafeBufferPointer { input in
            tjCompress2(
                handle,
                input.baseAddress,
                Int32(image.width),
                Int32(image.width * 3),
                Int32(image.height),
                TJPF_RGB.rawValue,
                &output,
                &size,
                Int32(subsampling.rawValue),
                Int32(min(max(quality, 1), 100)),
                0
            )
        }
        guard status == 0, let output else { throw .encodingFailed(JPEGDecoder.errorMessage(handle)) }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
