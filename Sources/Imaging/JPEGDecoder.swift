import CJPEG
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

    /// The most scans a JPEG may have. Each progressive scan passes over every block again, so a 50-megapixel file
    /// within the pixel limits but with hundreds of scans costs many seconds of decoding; libjpeg's encoders write
    /// about 10 and libjpeg-turbo's own cap (`TJFLAG_LIMITSCANS`) is 500. djpeg's `-maxscans` is the same idea.
    static let maxScans = 100

    /// Refuses a JPEG with more than ``maxScans`` scans, counted from its markers before anything is decoded.
    static func checkScans(_ bytes: UnsafeRawBufferPointer) throws(ImagingError) {
        let scans = scanCount(bytes, stoppingAfter: maxScans)
        guard scans <= maxScans else {
            throw .unsupported(
                .jpeg,
                "is saved in more than \(maxScans) progressive scans, which would take too long to decode (cameras and "
                    + "editors write about 10). Save it again as a standard JPEG",
                detail: "more than \(maxScans) SOS markers")
        }
    }

    /// The SOS markers in a JPEG (each starts one scan, as libjpeg counts them), up to one past `limit`. Segments
    /// are skipped by their lengths, so a thumbnail inside EXIF is not counted; a scan's entropy-coded data runs to
    /// the next 0xFF that is neither a stuffed 0x00 nor a restart marker. Stops at EOI or where the bytes end.
    static func scanCount(_ bytes: UnsafeRawBufferPointer, stoppingAfter limit: Int) -> Int {
        var i = 2
        var scans = 0
        while i + 1 < bytes.count, scans <= limit {
            // Stray bytes and fill bytes before a marker: libjpeg skips them too (and warns, which stops it).
            guard bytes[i] == 0xFF, bytes[i + 1] != 0xFF else {
                i += 1
                continue
            }
            let marker = bytes[i + 1]
            i += 2
            if marker == 0xD9 { break }
            if (0xD0...0xD7).contains(marker) || marker == 0x01 || marker == 0x00 { continue }
            guard i + 1 < bytes.count else { break }
            i += Int(bytes[i]) << 8 | Int(bytes[i + 1])
            guard marker == 0xDA else { continue }
            scans += 1
            while i + 1 < bytes.count, !(bytes[i] == 0xFF && bytes[i + 1] != 0x00 && !(0xD0...0xD7).contains(bytes[i + 1])) {
                i += 1
            }
        }
        return scans
    }

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

    /// A DCT scale libjpeg decodes at, and the size it gives.
    struct Scale: Equatable {
        var num: Int
        var denom: Int
        var width: Int
        var height: Int
    }

    /// The smallest DCT-scaled size (an M/8 scale no larger than 1) that is at least `atLeast` on both axes.
    static func scale(width: Int, height: Int, atLeast: (width: Int, height: Int)?) -> Scale {
        var best = Scale(num: 1, denom: 1, width: width, height: height)
        guard let atLeast else { return best }
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return best }
        for factor in UnsafeBufferPointer(start: factors, count: Int(count)) where factor.num <= factor.denom {
            // TJSCALED is a macro and is not imported: the same rounding-up division (libjpeg's too).
            let num = Int(factor.num)
            let denom = Int(factor.denom)
            let w = (width * num + denom - 1) / denom
            let h = (height * num + denom - 1) / denom
            if w >= atLeast.width && h >= atLeast.height && w * h < best.width * best.height {
                best = Scale(num: num, denom: denom, width: w, height: h)
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

    /// CMYK through libturbojpeg into a buffer; everything else row by row through libjpeg (`JPEGRows`), so the
    /// resampler's first stage decodes on its own thread while the second filters.
    func decode(atLeast: (width: Int, height: Int)?) throws(ImagingError) -> any RowSource {
        try JPEGDecoder.checkScans(input.bytes)
        let scale = JPEGDecoder.scale(width: width, height: height, atLeast: atLeast)
        let (w, h) = (scale.width, scale.height)
        if header.isCMYK {
            let cmyk = try JPEGDecoder.decompress(input.bytes, handle: handle, width: w, height: h, format: TJPF_CMYK)
            let rgb = PixelBuffer(count: w * h * 3)
            ColorConversion.adobeCMYKToRGB(UnsafePointer(cmyk.base), into: rgb.base, pixelCount: w * h)
            return BufferRows(width: w, height: h, base: rgb.base, stride: w * 3, channels: 3, owner: rgb)
        }
        return try JPEGRows(input, scale: scale)
    }
}

/// Rows straight from libjpeg's scanline decoder, DCT-scaled, as RGB.
private final class JPEGRows: RowSource {
    let width: Int
    let height: Int
    private let reader: OpaquePointer
    private let row: UnsafeMutablePointer<UInt8>

    /// A second guard behind ``JPEGDecoder/checkScans(_:)``, counted by libjpeg itself as it reaches each scan.
    static let maxScans = UInt32(JPEGDecoder.maxScans)

    /// `input`'s bytes must stay valid while rows are read (the pipeline reads them within the same call).
    init(_ input: EncodedInput, scale: JPEGDecoder.Scale) throws(ImagingError) {
        guard let base = input.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
            let reader = grain_jpeg_open(base, input.bytes.count, Self.maxScans)
        else { throw ImagingError(.corrupt, "The JPEG decoder could not start.", format: .jpeg) }
        self.reader = reader
        var w: UInt32 = 0
        var h: UInt32 = 0
        guard grain_jpeg_start(reader, UInt32(scale.num), UInt32(scale.denom), &w, &h) == 0 else {
            let message = String(cString: grain_jpeg_message(reader))
            grain_jpeg_close(reader)
            throw .corrupt(.jpeg, message)
        }
        guard Int(w) == scale.width, Int(h) == scale.height else {
            grain_jpeg_close(reader)
            throw .corrupt(.jpeg, "decoded size \(w) × \(h) does not match \(scale.width) × \(scale.height)")
        }
        width = scale.width
        height = scale.height
        row = .allocate(capacity: width * 3)
    }

    deinit {
        grain_jpeg_close(reader)
        row.deallocate()
    }

    var decodesAsItGoes: Bool { true }

    func nextRow() throws(ImagingError) -> UnsafePointer<UInt8> {
        guard grain_jpeg_read_row(reader, row) == 0 else {
            throw .corrupt(.jpeg, String(cString: grain_jpeg_message(reader)))
        }
        return UnsafePointer(row)
    }
}
