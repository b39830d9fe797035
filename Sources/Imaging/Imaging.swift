#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Decoding, transforming and encoding of story photos, thumbnails and avatars.
///
/// Every function is a pure function of its arguments and creates its own codec handles, so any number of tasks
/// may call them concurrently.
public enum Imaging {
    /// Identifies the format from the magic bytes alone: JPEG (`FF D8 FF`), PNG (its 8-byte signature), WebP
    /// (`RIFF….WEBP`), and HEIF by its `ftyp` brands (`heic`, `heix`, `hevc`, `mif1`, `msf1`… as HEIC; `avif`,
    /// `avis` as AVIF).
    ///
    /// Magic bytes prove nothing about the rest of the file; always decode before trusting an upload.
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        bytes.withUnsafeBytes { ImageSniffer.format(of: UnsafeRawBufferPointer(rebasing: $0.prefix(ImageSniffer.prefixLength))) }
    }

    /// `sniff` on the first bytes of a file (nil when it cannot be read), for a first check of an upload that was
    /// streamed to disk.
    public static func sniff(fileAt path: String) -> ImageFormat? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var prefix = [UInt8](repeating: 0, count: ImageSniffer.prefixLength)
        let count = prefix.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return sniff(Array(prefix[0..<count]))
    }

    /// Reads the format and dimensions from the header without decoding any pixels, so a decompression bomb can
    /// be refused before memory is committed to it.
    public static func readInfo(_ bytes: [UInt8]) throws(ImagingError) -> ImageInfo {
        try withInput(bytes) { input throws(ImagingError) in
            let reader = try openReader(input, limits: PixelLimits(maxPixels: .max))
            return ImageInfo(format: reader.format, width: reader.width, height: reader.height)
        }
    }

    /// Decodes an image to RGB after checking its header against `maxPixels`.
    ///
    /// Nothing is decoded when the header is over the limit. JPEGs are decoded with DCT scaling straight to the
    /// smallest M/8 scale that is still at least `atLeast` on both axes, and large WebPs with libwebp's scaling to
    /// about twice `atLeast`; PNG, HEIC and AVIF come out at full size. CMYK, YCCK and grayscale JPEGs come out as
    /// RGB; alpha is flattened on white, as a browser shows it on a white page. Sizes are as `readInfo` reports
    /// them (EXIF orientation not applied; HEIF's own rotation applied), and colour profiles are not applied.
    /// - Parameters:
    ///   - bytes: the encoded image.
    ///   - maxPixels: the largest `width × height` accepted, checked against the header.
    ///   - atLeast: the smallest acceptable size after reduced-size decoding, or nil for full size.
    public static func decode(
        _ bytes: [UInt8],
        maxPixels: Int = 50_000_000,
        atLeast: (width: Int, height: Int)? = nil
    ) throws(ImagingError) -> RGBImage {
        try withInput(bytes) { input throws(ImagingError) in
            try openReader(input, limits: PixelLimits(maxPixels: maxPixels)).decode(atLeast: atLeast).collect()
        }
    }

    /// Lends `bytes` to `body` as an `EncodedInput`.
    static func withInput<R>(
        _ bytes: [UInt8],
        _ body: (EncodedInput) throws(ImagingError) -> R
    ) throws(ImagingError) -> R {
        let result: Result<R, ImagingError> = bytes.withUnsafeBytes { raw in
            Result { () throws(ImagingError) -> R in try body(EncodedInput(bytes: raw, path: nil)) }
        }
        return try result.get()
    }
}
