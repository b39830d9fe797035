/// One opened image: its header read, its metadata extracted, its pixels not yet decoded.
///
/// Each format's reader checks nothing but its own data; `Imaging.open` applies the pixel limits from `width` and
/// `height` before anyone calls `decode`.
protocol ImageReader: AnyObject {
    var format: ImageFormat { get }
    /// The size `decode` delivers at full scale (for HEIF, after the file's own rotation, mirroring and crop).
    var width: Int { get }
    var height: Int { get }
    /// The EXIF orientation still to apply to decoded pixels: 1 for HEIF, whose own transformations libheif has
    /// already applied (its EXIF orientation describes the stored image and must not be applied twice).
    var orientation: Int { get }
    /// EXIF fields, as read (for HEIF, `orientation` here may say what libheif already did).
    var metadata: ExifMetadata { get }
    var colourProfile: ColourProfile? { get }
    /// Decodes, at the smallest size the codec can produce cheaply that is still at least `atLeast` on both axes
    /// (nil: full size). Called at most once.
    func decode(atLeast: (width: Int, height: Int)?) throws(ImagingError) -> any RowSource
}

/// The header checks every upload passes before a pixel is decoded.
struct PixelLimits {
    /// The largest `width × height`.
    var maxPixels: Int
    /// The longest side, if limited.
    var maxSide: Int? = nil

    /// Which limit `width × height` is over, if any: the side is checked first.
    private enum Excess {
        case side(Int)
        case pixels
    }

    private func excess(width: Int, height: Int) -> Excess? {
        if let maxSide, width > maxSide || height > maxSide { return .side(maxSide) }
        let (count, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow || count > maxPixels ? .pixels : nil
    }

    /// Whether `width × height` passes `check`.
    func allows(width: Int, height: Int) -> Bool {
        excess(width: width, height: height) == nil
    }

    /// Throws `.tooLarge`, naming the format, its size and the limit.
    func check(_ format: ImageFormat?, width: Int, height: Int) throws(ImagingError) {
        switch excess(width: width, height: height) {
        case nil: return
        case .side(let maxSide): throw .tooLarge(format, width: width, height: height, maxSide: maxSide)
        case .pixels: throw .tooLarge(format, width: width, height: height, maxPixels: maxPixels)
        }
    }
}

extension Imaging {
    /// Opens `input` by its magic bytes, reading only headers and metadata, and refuses it from the header alone
    /// when it exceeds `limits`. Formats whose header we parse ourselves (PNG) are checked before their library
    /// reads anything; HEIC and AVIF, whose coded pictures may be larger than their headers say, also by
    /// those pictures' sizes before libheif decodes any.
    static func openReader(_ input: EncodedInput, limits: PixelLimits) throws(ImagingError) -> any ImageReader {
        let reader: any ImageReader
        switch input.format {
        case .jpeg: reader = try JPEGReader(input)
        case .png: reader = try PNGReader(input, limits: limits)
        case .heic, .avif: reader = try HEIFReader(input, limits: limits)
        case .webp: reader = try WebPReader(input)
        case nil: throw .unsupportedFormat
        }
        try limits.check(reader.format, width: reader.width, height: reader.height)
        return reader
    }
}
