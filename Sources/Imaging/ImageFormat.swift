/// The encoded image formats the server accepts as uploads.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg
    case png
    /// HEIF with HEVC-coded images (iPhones and many Android phones), through libheif.
    case heic
    /// HEIF with AV1-coded images, through libheif.
    case avif
    case webp

    /// The name people know the format by, for messages ("This HEIC is …").
    public var name: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .heic: "HEIC"
        case .avif: "AVIF"
        case .webp: "WebP"
        }
    }

    /// The registered media type, for an upload form's `accept` list.
    public var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .heic: "image/heic"
        case .avif: "image/avif"
        case .webp: "image/webp"
        }
    }

    /// Every supported format's name, as a sentence lists them: "JPEG, PNG, HEIC, AVIF or WebP".
    public static var namesForPeople: String {
        let names = allCases.map(\.name)
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }

    /// Whether libheif decodes it (and applies the file's own rotation and mirroring itself).
    var isHEIF: Bool { self == .heic || self == .avif }
}

/// What an image's header says, read without decoding any pixels.
public struct ImageInfo: Sendable, Equatable {
    /// The container format, from the magic bytes.
    public var format: ImageFormat
    /// Width in pixels as the decoder delivers them: as stored for JPEG, PNG and WebP (EXIF orientation not
    /// applied), after the file's own rotation and mirroring for HEIC and AVIF.
    public var width: Int
    /// Height in pixels, on the same terms as `width`.
    public var height: Int

    public init(format: ImageFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// `width × height`, the figure decompression-bomb limits are stated in.
    public var pixelCount: Int { width * height }
}
