/// The encoded image formats the server accepts as uploads.
public enum ImageFormat: String, Sendable {
    case jpeg
    case png
}

/// What an image's header says, read without decoding any pixels.
public struct ImageInfo: Sendable, Equatable {
    /// The container format, from the magic bytes.
    public var format: ImageFormat
    /// Width in pixels, as stored (EXIF orientation not applied).
    public var width: Int
    /// Height in pixels, as stored (EXIF orientation not applied).
    public var height: Int

    public init(format: ImageFormat, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// `width × height`, the figure decompression-bomb limits are stated in.
    public var pixelCount: Int { width * height }
}
