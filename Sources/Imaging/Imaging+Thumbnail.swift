/// A small JPEG rendition and its pixel size (for `width`/`height` attributes and aspect ratios).
public struct Thumbnail: Sendable {
    public var jpeg: [UInt8]
    public var width: Int
    public var height: Int

    public init(jpeg: [UInt8], width: Int, height: Int) {
        self.jpeg = jpeg
        self.width = width
        self.height = height
    }
}

extension Imaging {
    /// Decodes (at reduced size when the codec can), fits inside `maxEdge × maxEdge` without enlarging, and
    /// encodes.
    ///
    /// EXIF orientation is not applied: the image is treated as stored.
    /// - Parameters:
    ///   - bytes: a supported image within the default pixel limit.
    ///   - maxEdge: the longest side allowed, at least 1.
    ///   - quality: JPEG quality 1–100.
    public static func thumbnail(of bytes: [UInt8], maxEdge: Int, quality: Int = 80) throws(ImagingError) -> Thumbnail {
        guard maxEdge > 0 else { throw .invalidArgument("maxEdge must be positive, not \(maxEdge)") }
        let image = try withInput(bytes) { input throws(ImagingError) in
            let reader = try openReader(input, limits: PixelLimits(maxPixels: PipelineOptions().maxPixels))
            let size = fittedSize(width: reader.width, height: reader.height, maxWidth: maxEdge, maxHeight: maxEdge)
            // Resize to the size computed from the header: a reduced decode's rounding may differ by a pixel.
            return try Resampler.resample(reader.decode(atLeast: size), width: size.width, height: size.height)
        }
        return Thumbnail(jpeg: try encodeJPEG(image, quality: quality), width: image.width, height: image.height)
    }

    /// Crops the largest centred square, then fits it inside `size × size` without enlarging (for avatars).
    /// - Parameters:
    ///   - bytes: a supported image within the default pixel limit.
    ///   - size: the side of the square, at least 1.
    ///   - quality: JPEG quality 1–100.
    public static func squareThumbnail(
        of bytes: [UInt8],
        size: Int,
        quality: Int = 80
    ) throws(ImagingError) -> Thumbnail {
        guard size > 0 else { throw .invalidArgument("size must be positive, not \(size)") }
        let info = try readInfo(bytes)
        let side = min(size, info.width, info.height)
        let decoded = try decode(bytes, atLeast: (side, side))
        let image = decoded.centerSquare().resized(width: side, height: side)
        return Thumbnail(jpeg: try encodeJPEG(image, quality: quality), width: side, height: side)
    }
}
