/// Decoding, transforming and encoding of story photos, thumbnails and avatars.
///
/// Every function is a pure function of its arguments and creates its own codec handles, so any number of tasks
/// may call them concurrently.
public enum Imaging {
    /// Identifies the format from the magic bytes alone.
    ///
    /// Magic bytes prove nothing about the rest of the file; always decode before trusting an upload.
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        if bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF {
            return .jpeg
        }
        if bytes.count >= 8 && bytes[0..<8].elementsEqual(PNGDecoder.signature) {
            return .png
        }
        return nil
    }

    /// Reads the format and dimensions from the header without decoding any pixels, so a decompression bomb can
    /// be refused before memory is committed to it.
    public static func readInfo(_ bytes: [UInt8]) throws(ImagingError) -> ImageInfo {
        switch sniff(bytes) {
        case .jpeg:
            let header = try JPEGDecoder.readHeader(bytes)
            return ImageInfo(format: .jpeg, width: header.width, height: header.height)
        case .png:
            let (width, height) = try PNGDecoder.readHeader(bytes)
            return ImageInfo(format: .png, width: width, height: height)
        case nil:
            throw .unsupportedFormat
        }
    }

    /// Decodes an image to RGB after checking its header against `maxPixels`.
    ///
    /// Nothing is decoded when the header is over the limit. JPEGs are decoded with DCT scaling straight to the
    /// smallest M/8 scale that is still at least `atLeast` on both axes, which is much faster and never holds the
    /// full-size pixels; PNGs are always decoded at full size. CMYK, YCCK and grayscale JPEGs come out as RGB;
    /// PNG alpha is flattened on white, as a browser shows it on a white page. Sizes are as stored, before any
    /// EXIF orientation, and ICC profiles are ignored (samples are taken as sRGB).
    /// - Parameters:
    ///   - bytes: the encoded image.
    ///   - maxPixels: the largest `width × height` accepted, checked against the header.
    ///   - atLeast: the smallest acceptable size after DCT scaling, or nil for full size.
    public static func decode(
        _ bytes: [UInt8],
        maxPixels: Int = 50_000_000,
        atLeast: (width: Int, height: Int)? = nil
    ) throws(ImagingError) -> RGBImage {
        switch sniff(bytes) {
        case .jpeg:
            return try JPEGDecoder.decode(bytes, maxPixels: maxPixels, atLeast: atLeast)
        case .png:
            return try PNGDecoder.decode(bytes, maxPixels: maxPixels)
        case nil:
            throw .unsupportedFormat
        }
    }

    /// Throws `.tooLarge` when `width × height` exceeds `maxPixels`.
    static func checkLimit(width: Int, height: Int, maxPixels: Int) throws(ImagingError) {
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || count > maxPixels {
            throw .tooLarge(width: width, height: height, maxPixels: maxPixels)
        }
    }
}
