/// Limits for `ImagePipeline.process`; the defaults are Grain's story-photo rules (`grain-api.md` §9.1).
public struct PipelineOptions: Sendable {
    /// The output fits inside `maxEdge × maxEdge`.
    public var maxEdge = 2000
    /// The largest output in bytes, at most `PipelineOptions.byteLimitCeiling` (the story blob's `maxSize`).
    public var maxBytes = 900_000
    /// The largest `width × height` accepted, checked against the header before decoding.
    public var maxPixels = 50_000_000
    /// The largest encoded file accepted, checked before anything is read (the upload route's own limit is
    /// normally lower and applies first).
    public var maxFileBytes = 50_000_000
    /// The lowest JPEG quality the search may use before shrinking the image instead.
    public var minimumQuality = 40
    /// The highest JPEG quality the search may use.
    public var maximumQuality = 92
    /// Whether the quality search may encode its two candidates of a round on two threads at once (halving its
    /// wall time on a multi-core host). Off leaves one photo to one core.
    public var concurrentEncodes = true

    /// The `social.grain.story` lexicon's `maxSize` for the media blob.
    public static let byteLimitCeiling = 5_000_000
    /// Longer sides are refused whatever the pixel count (`security.md` §4.2).
    public static let maxSide = 12_000
    /// The byte-limit fallback never shrinks the longest side below this.
    public static let minimumEdge = 320

    public init() {}

    /// Throws `.invalidArgument` for limits that make no sense or exceed what a story blob may hold.
    func validate() throws(ImagingError) {
        guard maxEdge > 0 else { throw .invalidArgument("maxEdge must be positive, not \(maxEdge)") }
        guard (1...Self.byteLimitCeiling).contains(maxBytes) else {
            throw .invalidArgument("maxBytes must be 1...\(Self.byteLimitCeiling), not \(maxBytes)")
        }
        guard maxPixels > 0 else { throw .invalidArgument("maxPixels must be positive, not \(maxPixels)") }
        guard maxFileBytes > 0 else { throw .invalidArgument("maxFileBytes must be positive, not \(maxFileBytes)") }
        guard (1...100).contains(minimumQuality), (minimumQuality...100).contains(maximumQuality) else {
            throw .invalidArgument("quality range \(minimumQuality)...\(maximumQuality) is not within 1...100")
        }
    }
}

/// A story photo ready to upload, and what was read from the original.
public struct ProcessedImage: Sendable {
    /// A fresh baseline JPEG carrying only a JFIF header: no EXIF, XMP, ICC or GPS from the upload.
    public var jpeg: [UInt8]
    /// Output width in pixels (with `height`, the record's aspect ratio).
    public var width: Int
    /// Output height in pixels.
    public var height: Int
    /// The JPEG quality used.
    public var quality: Int
    /// The EXIF orientation applied to the pixels, 1 if none. Always 1 for HEIC and AVIF, whose own rotation and
    /// mirroring libheif applies while decoding.
    public var orientation: Int
    /// Read from the source, whatever its format. GPS is transient, for the caller to turn into an H3 cell; it is
    /// not in `jpeg`.
    public var metadata: ExifMetadata
    /// The upload's format.
    public var sourceFormat: ImageFormat

    public init(
        jpeg: [UInt8],
        width: Int,
        height: Int,
        quality: Int,
        orientation: Int,
        metadata: ExifMetadata,
        sourceFormat: ImageFormat = .jpeg
    ) {
        self.jpeg = jpeg
        self.width = width
        self.height = height
        self.quality = quality
        self.orientation = orientation
        self.metadata = metadata
        self.sourceFormat = sourceFormat
    }
}
