/// Turns an uploaded JPEG or PNG into a story photo: upright, within `maxEdge`, within `maxBytes`, metadata-free.
///
/// Order matters for safety (`security.md` §4.3–4.4): the header is checked before anything is decoded, decoding
/// is DCT-scaled so full-resolution pixels are never held when not needed, and the orientation is applied to the
/// pixels because the re-encoded file no longer carries the tag.
public enum ImagePipeline {
    /// Processes one upload. Pure and re-entrant, so concurrent calls are safe (bound them for memory's sake).
    /// - Parameters:
    ///   - bytes: the uploaded file.
    ///   - options: size, byte and quality limits.
    /// - Throws: `.unsupportedFormat`, `.tooLarge` (refused from the header alone), `.corrupt`,
    ///   `.invalidArgument` for bad options, or `.cannotFit` when even a small, low-quality version exceeds
    ///   `maxBytes`.
    public static func process(
        _ bytes: [UInt8],
        options: PipelineOptions = .init()
    ) throws(ImagingError) -> ProcessedImage {
        try options.validate()
        let info = try Imaging.readInfo(bytes)
        guard info.width <= PipelineOptions.maxSide, info.height <= PipelineOptions.maxSide else {
            throw .tooLarge(width: info.width, height: info.height, maxSide: PipelineOptions.maxSide)
        }
        try Imaging.checkLimit(width: info.width, height: info.height, maxPixels: options.maxPixels)

        let metadata = Exif.read(bytes)
        let orientation = metadata.orientation ?? 1
        let swapsAxes = orientation >= 5
        let upright = swapsAxes ? (width: info.height, height: info.width) : (width: info.width, height: info.height)
        let target = Imaging.fittedSize(
            width: upright.width,
            height: upright.height,
            maxWidth: options.maxEdge,
            maxHeight: options.maxEdge
        )
        // The decoder scales stored pixels, so ask for the target in stored orientation.
        let atLeast = swapsAxes ? (width: target.height, height: target.width) : target
        let decoded = try Imaging.decode(bytes, maxPixels: options.maxPixels, atLeast: atLeast)
        // Resizing before orienting means only the small image is rotated, and the large decoded buffer is dropped
        // early. The size comes from the header: the DCT-scaled image's rounding may differ by a pixel.
        let fitted = decoded.resized(width: atLeast.width, height: atLeast.height)
            .oriented(exifOrientation: orientation)
        let encoded = try encodeWithinLimit(fitted, options: options)
        return ProcessedImage(
            jpeg: encoded.jpeg,
            width: encoded.width,
            height: encoded.height,
            quality: encoded.quality,
            orientation: orientation,
            metadata: metadata
        )
    }

    /// Encodes at the highest quality that fits; failing that, shrinks by about 0.85 per round (resampling from
    /// `image` each time, so rounds do not compound blur) until it fits or the longest side would drop below
    /// `PipelineOptions.minimumEdge`.
    static func encodeWithinLimit(
        _ image: RGBImage,
        options: PipelineOptions
    ) throws(ImagingError) -> (jpeg: [UInt8], width: Int, height: Int, quality: Int) {
        var current = image
        while true {
            if let (jpeg, quality) = try highestQualityFitting(current, options: options) {
                return (jpeg, current.width, current.height, quality)
            }
            let edge = max(current.width, current.height) * 85 / 100
            guard edge >= PipelineOptions.minimumEdge else {
                throw ImagingError(
                    .cannotFit,
                    "image does not fit in \(options.maxBytes) bytes even at \(current.width)×\(current.height) "
                        + "pixels and quality \(options.minimumQuality)"
                )
            }
            let size = Imaging.fittedSize(width: image.width, height: image.height, maxWidth: edge, maxHeight: edge)
            current = image.resized(width: size.width, height: size.height)
        }
    }

    /// Binary search over `minimumQuality...maximumQuality` for the highest quality whose encoding is at most
    /// `maxBytes`, assuming size grows with quality. The maximum is tried first because small or smooth images
    /// usually fit there at once; otherwise about six more encodes follow. Nil when even the minimum is too big.
    static func highestQualityFitting(
        _ image: RGBImage,
        options: PipelineOptions
    ) throws(ImagingError) -> (jpeg: [UInt8], quality: Int)? {
        let top = try Imaging.encodeJPEG(image, quality: options.maximumQuality)
        if top.count <= options.maxBytes { return (top, options.maximumQuality) }
        var best: (jpeg: [UInt8], quality: Int)? = nil
        var low = options.minimumQuality
        var high = options.maximumQuality - 1
        while low <= high {
            let quality = (low + high) / 2
            let jpeg = try Imaging.encodeJPEG(image, quality: quality)
            if jpeg.count <= options.maxBytes {
                best = (jpeg, quality)
                low = quality + 1
            } else {
                high = quality - 1
            }
        }
        return best
    }
}
