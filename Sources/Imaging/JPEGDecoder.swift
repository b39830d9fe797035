import CTurboJPEG

/// JPEG decoding through libturbojpeg, one handle per reader because a tjhandle is not thread-safe.
enum JPEGDecoder {
    struct Header: Equatable {
        var width: Int
        var height: Int
        var isCMYK: Bool
    }

    /// Guards against progressive-scan exploits (always, per `security.md` §4.3) and refuses data libjpeg can only
    /// decode with warnings (truncated or damaged files) rather than storing a half-grey photo.
    static let flags = TJFLAG_LIMITSCANS | TJFLAG_STOPONWARNING

    static func readHeader(_ bytes: UnsafeRawBufferPointer, handle: tjhandle) throws(ImagingError) -> Header {
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let status = tjDecompressHeader3(
            handle,
            bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
            UInt(bytes.count),
            &width,
            &height,
            &subsampling,
            &colorspace
        )
        guard status == 0 else { throw .corrupt(.jpeg, errorMessage(handle)) }
        guard width > 0 && height > 0 else { throw .corrupt(.jpeg, "image has no pixels") }
        let space = UInt32(bitPattern: colorspace)
        return Header(
            width: Int(width),
            height: Int(height),
            isCMYK: space == TJCS_CMYK.rawValue || space == TJCS_YCCK.rawValue
        )
    }

    /// The smallest DCT-scaled size (an M/8 scale no larger than 1) that is at least `atLeast` on both axes.
    static func scaledSize(width: Int, height: Int, atLeast: (width: Int, height: Int)?) -> (Int, Int) {
        guard let atLeast else { return (width, height) }
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return (width, height) }
        var best = (width, height)
        for factor in UnsafeBufferPointer(start: factors, count: Int(count)) where factor.num <= factor.denom {
            // TJSCALED is a macro and is not imported: the same rounding-up division.
            let num = Int(factor.num)
            let denom = Int(factor.denom)
            let w = (width * num + denom - 1) / denom
            let h = (height * num + denom - 1) / denom
            if w >= atLeast.width && h >= atLeast.height && w * h < best.0 * best.1 {
                best = (w, h)
            }
        }
        return best
    }

    /// Decodes into a fresh buffer of `width × height` pixels in `format` (RGB or CMYK).
    static func decompress(
        _ bytes: UnsafeRawBufferPointer,
        handle: tjhandle,
        width: Int,
        height: Int,
        format: TJPF
    ) throws(ImagingError) -> PixelBuffer {
        let channels = format == TJPF_CMYK ? 4 : 3
        let buffer = PixelBuffer(count: width * height * channels)
        let status = tjDecompress2(
            handle,
            bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
            UInt(bytes.count),
            buffer.base,
            Int32(width),
            Int32(width * channels),
            Int32(height),
            format.rawValue,
            flags
        )
        guard status == 0 else { throw .corrupt(.jpeg, errorMessage(handle)) }
        return buffer
    }

    static func errorMessage(_ handle: tjhandle?) -> String {
        guard let message = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: message)
    }
}

/// A JPEG opened for decoding: header, EXIF and ICC read, pixels DCT-scaled on decode.
final class JPEGReader: ImageReader {
    let format = ImageFormat.jpeg
    let width: Int
    let height: Int
    let orientation: Int
    let metadata: ExifMetadata
    let colourProfile: ColourProfile?
    private let input: EncodedInput
    private let header: JPEGDecoder.Header
    private let handle: tjhandle

    init(_ input: EncodedInput) throws(ImagingError) {
        guard let handle = tjInitDecompress() else {
            throw ImagingError(.corrupt, "The JPEG decoder could not start.", detail: JPEGDecoder.errorMessage(nil))
        }
        self.handle = handle
        self.input = input
        do {
            header = try JPEGDecoder.readHeader(input.bytes, handle: handle)
        } catch {
            tjDestroy(handle)
            throw error
        }
        width = header.width
        height = header.height
        let segments = JPEGSegments(input.bytes)
        metadata = segments.exif.map { Exif.metadata(tiff: input.copy($0)) } ?? ExifMetadata()
        orientation = metadata.orientation ?? 1
        colourProfile = segments.icc.map(ColourProfile.icc)
    }

    deinit {
        tjDestroy(handle)
    }

    func decode(atLeast: (width: Int, height: Int)?) throws(ImagingError) -> any RowSource {
        let (w, h) = JPEGDecoder.scaledSize(width: width, height: height, atLeast: atLeast)
        if header.isCMYK {
            let cmyk = try JPEGDecoder.decompress(input.bytes, handle: handle, width: w, height: h, format: TJPF_CMYK)
            let rgb = PixelBuffer(count: w * h * 3)
            ColorConversion.adobeCMYKToRGB(UnsafePointer(cmyk.base), into: rgb.base, pixelCount: w * h)
            return BufferRows(width: w, height: h, base: rgb.base, stride: w * 3, channels: 3, owner: rgb)
        }
        let rgb = try JPEGDecoder.decompress(input.bytes, handle: handle, width: w, height: h, format: TJPF_RGB)
        return BufferRows(width: w, height: h, base: rgb.base, stride: w * 3, channels: 3, owner: rgb)
    }
}
