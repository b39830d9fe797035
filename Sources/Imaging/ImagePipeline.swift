import MappedFiles

/// Turns an uploaded photo (JPEG, PNG, HEIC, AVIF or WebP) into a story photo: upright, in sRGB, within
/// `maxEdge`, within `maxBytes`, metadata-free.
///
/// Order matters for safety (`security.md` §4.3–4.4): the file size is checked first, then the header, before
/// anything is decoded; decoding is reduced-size where the codec allows (JPEG DCT scaling, libwebp scaling) and
/// streams rows into the resampler where it can (PNG), so full-resolution pixels are held only when the codec
/// insists (HEIF); the orientation is applied to the pixels because the re-encoded file no longer carries the tag,
/// and colours are converted to sRGB because it no longer carries the profile either.
public enum ImagePipeline {
    /// Processes one upload held in memory. Pure and re-entrant, so concurrent calls are safe (bound them for
    /// memory's sake).
    /// - Parameters:
    ///   - bytes: the uploaded file.
    ///   - options: size, byte and quality limits.
    /// - Throws: `ImagingError` whose `description` can be shown to the uploader as it is: `.unsupportedFormat`,
    ///   `.tooLarge` (refused from the file size or the header alone), `.corrupt`, `.invalidArgument` for bad
    ///   options, or `.cannotFit` when even a small, low-quality version exceeds `maxBytes`.
    public static func process(
        _ bytes: [UInt8],
        options: PipelineOptions = .init()
    ) throws(ImagingError) -> ProcessedImage {
        try options.validate()
        guard bytes.count <= options.maxFileBytes else {
            throw .fileTooLarge(bytes: bytes.count, maxBytes: options.maxFileBytes)
        }
        return try Imaging.withInput(bytes) { input throws(ImagingError) in try process(input, options: options) }
    }

    /// Processes one upload stored in a file (the server streams uploads to a temporary file), reading it in
    /// place: libpng and libheif read the file themselves, JPEG and WebP are decoded from a read-only map of it,
    /// so the upload is never copied into the heap. The file is not modified or removed.
    /// - Parameters:
    ///   - path: the uploaded file.
    ///   - options: size, byte and quality limits.
    /// - Throws: as `process(_:options:)`, and `.unreadable` when the file cannot be opened.
    public static func process(
        fileAt path: String,
        options: PipelineOptions = .init()
    ) throws(ImagingError) -> ProcessedImage {
        try options.validate()
        let file = try MappedFile.photo(at: path, maxBytes: options.maxFileBytes)
        return try withExtendedLifetime(file) { () throws(ImagingError) in try process(file.input, options: options) }
    }

    static func process(_ input: EncodedInput, options: PipelineOptions) throws(ImagingError) -> ProcessedImage {
        let reader = try Imaging.openReader(
            input,
            limits: PixelLimits(maxPixels: options.maxPixels, maxSide: PipelineOptions.maxSide)
        )
        let orientation = reader.orientation
        let swapsAxes = orientation >= 5
        let upright =
            swapsAxes ? (width: reader.height, height: reader.width) : (width: reader.width, height: reader.height)
        let target = Imaging.fittedSize(
            width: upright.width,
            height: upright.height,
            maxWidth: options.maxEdge,
            maxHeight: options.maxEdge
        )
        // The decoder scales stored pixels, so ask for the target in stored orientation.
        let stored = swapsAxes ? (width: target.height, height: target.width) : target
        // Resizing before orienting means only the small image is rotated. The size comes from the header: a
        // reduced-size decode's rounding may differ by a pixel.
        var fitted = try Resampler.resample(reader.decode(atLeast: stored), width: stored.width, height: stored.height)
            .oriented(exifOrientation: orientation)
        if let profile = reader.colourProfile {
            ColourManagement.convertToSRGB(&fitted, from: profile)
        }
        let encoded = try encodeWithinLimit(fitted, options: options)
        return ProcessedImage(
            jpeg: encoded.jpeg,
            width: encoded.width,
            height: encoded.height,
            quality: encoded.quality,
            orientation: orientation,
            metadata: reader.metadata,
            sourceFormat: reader.format
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
                throw .cannotFit(
                    maxBytes: options.maxBytes,
                    width: current.width,
                    height: current.height,
                    quality: options.minimumQuality
                )
            }
            let size = Imaging.fittedSize(width: image.width, height: image.height, maxWidth: edge, maxHeight: edge)
            current = image.resized(width: size.width, height: size.height)
        }
    }

    /// The highest quality in `minimumQuality...maximumQuality` whose encoding is at most `maxBytes` (see
    /// `QualitySearch`), encoding each round's candidates concurrently when `options.concurrentEncodes` allows.
    /// Nil when even the minimum is too big.
    static func highestQualityFitting(
        _ image: RGBImage,
        options: PipelineOptions
    ) throws(ImagingError) -> (jpeg: [UInt8], quality: Int)? {
        var search = QualitySearch(
            minimum: options.minimumQuality,
            maximum: options.maximumQuality,
            maxBytes: options.maxBytes
        )
        if let sample = image.stripeSample() {
            let qualities = search.sampleQualities
            let encoded = try encode(sample.image, qualities, concurrently: options.concurrentEncodes)
            for (quality, jpeg) in zip(qualities, encoded) {
                search.record(quality: quality, estimatedSize: Int(Double(jpeg.count) * sample.scale))
            }
        }
        var best: (jpeg: [UInt8], quality: Int)?
        while case let candidates = search.candidates(), !candidates.isEmpty {
            let encoded = try encode(image, candidates, concurrently: options.concurrentEncodes)
            for (quality, jpeg) in zip(candidates, encoded) {
                search.record(quality: quality, size: jpeg.count)
                if jpeg.count <= options.maxBytes && quality > (best?.quality ?? .min) { best = (jpeg, quality) }
            }
        }
        guard let quality = search.bestFitting, let best, best.quality == quality else { return nil }
        return best
    }

    private static func encode(
        _ image: RGBImage,
        _ qualities: [Int],
        concurrently: Bool
    ) throws(ImagingError) -> [[UInt8]] {
        if concurrently { return try Imaging.encodeJPEGs(image, qualities: qualities) }
        return try qualities.map { quality throws(ImagingError) in try Imaging.encodeJPEG(image, quality: quality) }
    }
}
