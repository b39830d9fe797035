/// Why an image could not be read, decoded or encoded.
///
/// `kind` lets callers pick a response (for example 413 for `.tooLarge`, 415 for `.unsupportedFormat`) without
/// matching on message text; `description` is a sentence fit for logs.
public struct ImagingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The broad class of failure.
    public enum Kind: Sendable, Equatable {
        /// The bytes are neither JPEG nor PNG.
        case unsupportedFormat
        /// The header claims more pixels than the caller allows.
        case tooLarge
        /// The data is truncated or malformed.
        case corrupt
        /// The caller passed an impossible image or parameter.
        case invalidArgument
        /// The encoder failed on valid input.
        case encodingFailed
        /// No quality or size allowed by the caller brings the encoded image under its byte limit.
        case cannotFit
    }

    /// The broad class of failure.
    public let kind: Kind
    /// A human-readable explanation.
    public let description: String

    init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    static let unsupportedFormat = ImagingError(.unsupportedFormat, "not a JPEG or PNG image")

    static func tooLarge(width: Int, height: Int, maxPixels: Int) -> ImagingError {
        let limit =
            maxPixels % 1_000_000 == 0 && maxPixels > 0
            ? "\(maxPixels / 1_000_000) megapixels" : "\(maxPixels) pixels"
        return ImagingError(.tooLarge, "image is \(width)×\(height) pixels; the limit is \(limit)")
    }

    static func corrupt(_ format: ImageFormat, _ detail: String) -> ImagingError {
        let name = format == .jpeg ? "JPEG" : "PNG"
        return ImagingError(.corrupt, "corrupt \(name) data: \(detail)")
    }

    static func tooLarge(width: Int, height: Int, maxSide: Int) -> ImagingError {
        ImagingError(.tooLarge, "image is \(width)×\(height) pixels; the limit is \(maxSide) pixels per side")
    }

    static func invalidArgument(_ detail: String) -> ImagingError {
        ImagingError(.invalidArgument, "invalid argument: \(detail)")
    }

    static func encodingFailed(_ detail: String) -> ImagingError {
        ImagingError(.encodingFailed, "JPEG encoding failed: \(detail)")
    }
}
