import Units

/// Why an image could not be read, decoded or encoded.
///
/// `kind` lets callers pick a response (for example 413 for `.tooLarge`, 415 for `.unsupportedFormat`) without
/// matching on message text. `description` is a complete sentence a person can act on, naming the format and the
/// limit where there is one ("This HEIC is 14,000 × 10,000 pixels; the limit is 50 megapixels."), fit to show on
/// the upload form as it is; `detail` adds the codec's own words for logs.
public struct ImagingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The broad class of failure.
    public enum Kind: Sendable, Equatable {
        /// The bytes are none of the supported formats (`ImageFormat`), or a variant of one we cannot decode.
        case unsupportedFormat
        /// The file or its header claims more bytes or pixels than the caller allows.
        case tooLarge
        /// The data is truncated or malformed.
        case corrupt
        /// The caller passed an impossible image or parameter.
        case invalidArgument
        /// The encoder failed on valid input.
        case encodingFailed
        /// No quality or size allowed by the caller brings the encoded image under its byte limit.
        case cannotFit
        /// The file could not be opened or read.
        case unreadable
    }

    /// The broad class of failure.
    public let kind: Kind
    /// The format, when the magic bytes told it.
    public let format: ImageFormat?
    /// A sentence for the person who sent the image.
    public let description: String
    /// The codec's or system's own explanation, for logs; empty when there is nothing to add.
    public let detail: String

    init(_ kind: Kind, _ description: String, format: ImageFormat? = nil, detail: String = "") {
        self.kind = kind
        self.format = format
        self.description = description
        self.detail = detail
    }

    static let unsupportedFormat = ImagingError(
        .unsupportedFormat,
        "This file is not a photo format we can read (\(ImageFormat.namesForPeople))."
    )

    /// "This \(format) \(predicate)."
    static func unsupported(_ format: ImageFormat, _ predicate: String, detail: String = "") -> ImagingError {
        ImagingError(.unsupportedFormat, "This \(format.name) \(predicate).", format: format, detail: detail)
    }

    static func tooLarge(_ format: ImageFormat?, width: Int, height: Int, maxPixels: Int) -> ImagingError {
        let limit =
            maxPixels % 1_000_000 == 0 && maxPixels > 0
            ? "\((maxPixels / 1_000_000).groupedDigits) megapixels" : "\(maxPixels.groupedDigits) pixels"
        return ImagingError(
            .tooLarge,
            "\(subject(format)) is \(width.groupedDigits) × \(height.groupedDigits) pixels; the limit is \(limit).",
            format: format
        )
    }

    static func tooLarge(_ format: ImageFormat?, width: Int, height: Int, maxSide: Int) -> ImagingError {
        ImagingError(
            .tooLarge,
            "\(subject(format)) is \(width.groupedDigits) × \(height.groupedDigits) pixels; the limit is \(maxSide.groupedDigits) "
                + "pixels per side.",
            format: format
        )
    }

    /// A picture inside a HEIF file larger than the size the file declares for it, which is how a decompression
    /// bomb makes its decoder allocate more than its header admits.
    static func tooLarge(
        _ format: ImageFormat,
        part: String,
        width: Int,
        height: Int,
        declaredWidth: Int,
        declaredHeight: Int
    ) -> ImagingError {
        ImagingError(
            .tooLarge,
            "\(subject(format))'s \(part) is \(width.groupedDigits) × \(height.groupedDigits) pixels, larger than the "
                + "\(declaredWidth.groupedDigits) × \(declaredHeight.groupedDigits) its header declares. Try exporting the photo again.",
            format: format
        )
    }

    /// A coded picture our HEVC decoder refused for its size, which it sees without the file's declared sizes.
    static func tooLarge(_ format: ImageFormat, codedOver limits: PixelLimits, detail: String) -> ImagingError {
        let side = limits.maxSide.map { " or \($0.groupedDigits) pixels per side" } ?? ""
        return ImagingError(
            .tooLarge,
            "\(subject(format))'s image data is larger than \((limits.maxPixels / 1_000_000).groupedDigits) megapixels\(side), "
                + "so it was not decoded.",
            format: format,
            detail: detail
        )
    }

    static func fileTooLarge(bytes: Int, maxBytes: Int) -> ImagingError {
        ImagingError(.tooLarge, "This file is \(megabytes(bytes)); the limit is \(megabytes(maxBytes)).")
    }

    static func corrupt(_ format: ImageFormat, _ detail: String) -> ImagingError {
        ImagingError(
            .corrupt,
            "This \(format.name) is damaged or incomplete, so it cannot be read. Try exporting it again.",
            format: format,
            detail: detail
        )
    }

    static func unreadable(_ detail: String) -> ImagingError {
        ImagingError(.unreadable, "The uploaded file could not be read. Try again.", detail: detail)
    }

    static func invalidArgument(_ detail: String) -> ImagingError {
        ImagingError(.invalidArgument, "Invalid argument: \(detail).", detail: detail)
    }

    static func encodingFailed(_ detail: String) -> ImagingError {
        ImagingError(.encodingFailed, "The photo could not be re-encoded as JPEG.", detail: detail)
    }

    static func cannotFit(maxBytes: Int, width: Int, height: Int, quality: Int) -> ImagingError {
        ImagingError(
            .cannotFit,
            "This photo cannot be made smaller than \(maxBytes.groupedDigits) bytes without ruining it.",
            detail: "does not fit even at \(width)×\(height) pixels and quality \(quality)"
        )
    }

    private static func subject(_ format: ImageFormat?) -> String {
        format.map { "This \($0.name)" } ?? "This image"
    }

    /// Bytes in decimal megabytes with one decimal where it matters: "80.5 MB", "50 MB".
    static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes + 50_000) / 100_000
        return tenths % 10 == 0 ? "\(tenths / 10) MB" : "\(tenths / 10).\(tenths % 10) MB"
    }
}
