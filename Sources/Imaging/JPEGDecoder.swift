import CTurboJPEG

/// JPEG decoding through libturbojpeg, one handle per call because a tjhandle is not thread-safe.
enum JPEGDecoder {
    struct Header: Equatable {
        var width: Int
        var height: Int
        var isCMYK: Bool
    }

    /// Guards against progressive-scan exploits (always, per `security.md` §4.3) and refuses data libjpeg can only
    /// decode with warnings (truncated or damaged files) rather than storing a half-grey photo.
    static let flags = TJFLAG_LIMITSCANS | TJFLAG_STOPONWARNING

    static func readHeader(_ bytes: [UInt8]) throws(ImagingError) -> Header {
        try withHandle { handle throws(ImagingError) in try readHeader(bytes, handle: handle) }
    }

    static func decode(
        _ bytes: [UInt8],
        maxPixels: Int,
        atLeast: (width: Int, height: Int)?
    ) throws(ImagingError) -> RGBImage {
        try withHandle { handle throws(ImagingError) in
            let header = try readHeader(bytes, handle: handle)
            try Imaging.checkLimit(width: header.width, height: header.height, maxPixels: maxPixels)
            let (width, height) = scaledSize(width: header.width, height: header.height, atLeast: atLeast)
            if header.isCMYK {
                let cmyk = try decompress(bytes, handle: handle, width: width, height: height, format: TJPF_CMYK)
                return RGBImage(width: width, height: height, pixels: ColorConversion.adobeCMYKToRGB(cmyk))
            }
            let rgb = try decompress(bytes, handle: handle, width: width, height: height, format: TJPF_RGB)
            return RGBImage(width: width, height: height, pixels: rgb)
        }
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

    private static func readHeader(_ bytes: [UInt8], handle: tjhandle) throws(ImagingError) -> Header {
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let status = bytes.withUnsafeBufferPointer { buffer in
            tjDecompressHeader3(
                handle,
                buffer.baseAddress,
                UInt(buffer.count),
                &width,
                &height,
                &subsampling,
                &colorspace
            )
        }
        guard status == 0 else { throw .corrupt(.jpeg, errorMessage(handle)) }
        guard width > 0 && height > 0 else { throw .corrupt(.jpeg, "image has no pixels") }
        let space = UInt32(bitPattern: colorspace)
        return Header(
            width: Int(width),
            height: Int(height),
            isCMYK: space == TJCS_CMYK.rawValue || space == TJCS_YCCK.rawValue
        )
    }

    private static func decompress(
        _ bytes: [UInt8],
        handle: tjhandle,
        width: Int,
        height: Int,
        format: TJPF
    ) throws(ImagingError) -> [UInt8] {
        let channels = format == TJPF_CMYK ? 4 : 3
        var status: Int32 = -1
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * channels) { output, initialized in
            status = bytes.withUnsafeBufferPointer { input in
                tjDecompress2(
                    handle,
                    input.baseAddress,
                    UInt(input.count),
                    output.baseAddress,
                    Int32(width),
                    Int32(width * channels),
                    Int32(height),
                    format.rawValue,
                    flags
                )
            }
            initialized = status == 0 ? output.count : 0
        }
        guard status == 0 else { throw .corrupt(.jpeg, errorMessage(handle)) }
        return pixels
    }

    private static func withHandle<R>(
        _ body: (tjhandle) throws(ImagingError) -> R
    ) throws(ImagingError) -> R {
        guard let handle = tjInitDecompress() else {
            throw ImagingError(.corrupt, "could not create a JPEG decoder: \(errorMessage(nil))")
        }
        defer { tjDestroy(handle) }
        return try body(handle)
    }

    static func errorMessage(_ handle: tjhandle?) -> String {
        guard let message = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: message)
    }
}
