import CPNG

/// PNG decoding through libpng's simplified API, which handles every bit depth, palette, gray and alpha layout
/// and does its error handling (setjmp) on the C side.
enum PNGDecoder {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Reads the dimensions from the IHDR chunk, which the PNG specification requires to come first, without
    /// involving libpng (so a header-only or bomb file is measured before any allocation).
    static func readHeader(_ bytes: [UInt8]) throws(ImagingError) -> (width: Int, height: Int) {
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

    static func decode(_ bytes: [UInt8], maxPixels: Int) throws(ImagingError) -> RGBImage {
        let (width, height) = try readHeader(bytes)
        try Imaging.checkLimit(width: width, height: height, maxPixels: maxPixels)
        let result: Result<[UInt8], ImagingError> = bytes.withUnsafeBufferPointer { input in
            decodeInMemory(input, width: width, height: height)
        }
        return RGBImage(width: width, height: height, pixels: try result.get())
    }

    /// libpng reads lazily from `input` until `png_image_finish_read`, so everything happens inside the one
    /// borrow of the caller's bytes.
    private static func decodeInMemory(
        _ input: UnsafeBufferPointer<UInt8>,
        width: Int,
        height: Int
    ) -> Result<[UInt8], ImagingError> {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_memory(&image, input.baseAddress, input.count) != 0 else {
            png_image_free(&image)
            return .failure(.corrupt(.png, message(of: image)))
        }
        guard Int(image.width) == width, Int(image.height) == height else {
            png_image_free(&image)
            return .failure(.corrupt(.png, "libpng disagrees about the image size"))
        }
        let hasAlpha = image.format & PNG_FORMAT_FLAG_ALPHA != 0
        let channels = hasAlpha ? 4 : 3
        // libpng's default 1,000,000-pixel row limit already rules this out; the stride parameter is 32-bit.
        guard width * channels <= Int(Int32.max) else {
            png_image_free(&image)
            return .failure(.corrupt(.png, "rows of \(width) pixels are too long"))
        }
        image.format = hasAlpha ? PNG_FORMAT_RGB | PNG_FORMAT_FLAG_ALPHA : PNG_FORMAT_RGB
        // 16-bit files without gamma information are sRGB in practice (browsers and Pillow treat them so);
        // libpng would otherwise assume linear light and brighten them.
        image.flags |= png_uint_32(PNG_IMAGE_FLAG_16BIT_sRGB)

        var succeeded = false
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * channels) { buffer, initialized in
            // finish_read frees libpng's state whether or not it succeeds.
            succeeded =
                png_image_finish_read(&image, nil, buffer.baseAddress, png_int_32(width * channels), nil) != 0
            guard succeeded else {
                initialized = 0
                return
            }
            if hasAlpha {
                ColorConversion.flattenRGBAOnWhite(buffer, pixelCount: width * height)
            }
            initialized = width * height * 3
        }
        guard succeeded else { return .failure(.corrupt(.png, message(of: image))) }
        return .success(pixels)
    }

    private static func message(of image: png_image) -> String {
        let text = withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return text.isEmpty ? "unknown libpng error" : text
    }

    private static func bigEndian32(_ bytes: [UInt8], at offset: Int) -> Int {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }
}
