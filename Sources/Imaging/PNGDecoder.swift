import CPNG

#if canImport(Glibc)
    import Glibc
#endif

/// PNG header parsing of our own, so a bomb's size is known before libpng reads a byte.
enum PNGDecoder {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Ancillary chunks (decompressed iCCP, text, eXIf) larger than this are refused by libpng.
    static let maxChunkBytes = 8 << 20

    /// Reads the dimensions from the IHDR chunk, which the PNG specification requires to come first.
    static func readHeader(_ bytes: UnsafeRawBufferPointer) throws(ImagingError) -> (width: Int, height: Int) {
        guard bytes.count >= 24, bytes[0..<8].elementsEqual(signature) else {
            throw .corrupt(.png, "file ends before the IHDR header")
        }
        guard bytes[8..<16].elementsEqual([0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]) else {
            throw .corrupt(.png, "first chunk is not a 13-byte IHDR")
        }
        let width = bigEndian32(bytes, at: 16)
        let height = bigEndian32(bytes, at: 20)
        // The specification caps dimensions at 2^31 - 1 and forbids zero.
        guard (1...Int(Int32.max)).contains(width), (1...Int(Int32.max)).contains(height) else {
            throw .corrupt(.png, "invalid dimensions \(width)×\(height)")
        }
        return (width, height)
    }

    private static func bigEndian32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }
}

/// A PNG opened through libpng's low-level reader (`Sources/CPNG/shim.c`): from the file itself when there is one,
/// otherwise from memory; decoded row by row, so only interlaced files are ever held whole.
final class PNGReader: ImageReader {
    let format = ImageFormat.png
    let width: Int
    let height: Int
    let orientation: Int
    let metadata: ExifMetadata
    let colourProfile: ColourProfile?
    private let reader: OpaquePointer
    private var started = false

    init(_ input: EncodedInput, limits: PixelLimits) throws(ImagingError) {
        let (width, height) = try PNGDecoder.readHeader(input.bytes)
        try limits.check(.png, width: width, height: height)
        let file: UnsafeMutablePointer<FILE>?
        if let path = input.path {
            file = fopen(path, "rb")
        } else {
            // libpng only reads through the FILE; fmemopen wants a mutable pointer but "rb" never writes.
            file = fmemopen(UnsafeMutableRawPointer(mutating: input.bytes.baseAddress), input.bytes.count, "rb")
        }
        guard let file else { throw .unreadable("cannot open the PNG for reading") }
        guard let reader = grain_png_open(file, UInt32(width), UInt32(height), PNGDecoder.maxChunkBytes) else {
            throw .unreadable("libpng could not start")
        }
        self.reader = reader
        var header = grain_png_header()
        guard grain_png_read_header(reader, &header) == 0 else {
            let message = String(cString: grain_png_message(reader))
            grain_png_close(reader)
            throw .corrupt(.png, message)
        }
        guard Int(header.width) == width, Int(header.height) == height else {
            grain_png_close(reader)
            throw .corrupt(.png, "libpng disagrees about the image size")
        }
        self.width = width
        self.height = height
        if let icc = header.icc, header.icc_length > 0, Int(header.icc_length) <= ColourProfile.maxICCBytes {
            colourProfile = .icc(Array(UnsafeBufferPointer(start: icc, count: Int(header.icc_length))))
        } else {
            colourProfile = nil
        }
        if let exif = header.exif, header.exif_length > 0 {
            let block = Array(UnsafeBufferPointer(start: exif, count: Int(header.exif_length)))
            metadata = Exif.metadata(tiff: Exif.strippingExifHeader(block))
        } else {
            metadata = ExifMetadata()
        }
        orientation = metadata.orientation ?? 1
    }

    deinit {
        grain_png_close(reader)
    }

    /// PNG has no reduced-size decoding: every row comes out at full size, for the resampler to shrink as it goes.
    func decode(atLeast: (width: Int, height: Int)?) throws(ImagingError) -> any RowSource {
        precondition(!started, "a PNG is decoded once")
        started = true
        let channels = grain_png_start(reader)
        guard channels == 3 || channels == 4 else { throw .corrupt(.png, String(cString: grain_png_message(reader))) }
        return PNGRows(self, channels: Int(channels))
    }

    fileprivate func readRow(into row: UnsafeMutablePointer<UInt8>) throws(ImagingError) {
        guard grain_png_read_row(reader, row) == 0 else {
            throw .corrupt(.png, String(cString: grain_png_message(reader)))
        }
    }
}

/// Rows straight from libpng, RGBA flattened on white.
private final class PNGRows: RowSource {
    let width: Int
    let height: Int
    private let reader: PNGReader
    private let channels: Int
    private let row: UnsafeMutablePointer<UInt8>

    init(_ reader: PNGReader, channels: Int) {
        self.reader = reader
        self.channels = channels
        width = reader.width
        height = reader.height
        row = .allocate(capacity: reader.width * channels)
    }

    deinit {
        row.deallocate()
    }

    var decodesAsItGoes: Bool { true }

    func nextRow() throws(ImagingError) -> UnsafePointer<UInt8> {
        try reader.readRow(into: row)
        if channels == 4 {
            ColorConversion.flattenRGBAOnWhite(UnsafeMutableBufferPointer(start: row, count: width * 4), pixelCount: width)
        }
        return UnsafePointer(row)
    }
}
