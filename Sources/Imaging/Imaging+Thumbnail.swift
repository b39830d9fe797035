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
    /// Decodes (DCT-scaled when that is enough), fits inside `maxEdge × maxEdge` without enlarging, and encodes.
    ///
    /// EXIF orientation is not applied: the image is treated as stored.
    /// - Parameters:
    ///   - bytes: a JPEG or PNG within the default pixel limit.
    ///   - maxEdge: the longest side allowed, at least 1.
    ///   - quality: JPEG quality 1–100.
    public static func thumbnail(of bytes: [UInt8], maxEdge: Int, quality: Int = 80) throws(ImagingError) -> Thumbnail {
        guard maxEdge > 0 else { throw .invalidArgument("maxEdge must be positive, not \(maxEdge)") }
        let info = try readInfo(bytes)
        let size = fittedSize(width: info.width, height: info.height, maxWidth: maxEdge, maxHeight: maxEdge)
        let decoded = try decode(bytes, atLeast: size)
        // Resize to the size computed from the header: the DCT-scaled image's rounding may differ by a pixel.
        let image = decoded.resized(width: size.width, height: size.height)
        return Thumbnail(jpeg: try encodeJPEG(image, quality: quality), width: image.width, height: image.height)
    }

    /// Crops the largest centred square, then fits it inside `size × size` without enlarging (for avatars).
    /// - Parameters:
    ///   - bytes: a JPEG or PNG within the default pixel limit.
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
