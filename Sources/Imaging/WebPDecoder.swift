import CWebP

/// WebP through libwebp, with its EXIF and ICCP chunks read through libwebpdemux.
///
/// libwebp can scale while it decodes (an area-averaging rescaler), so a large WebP is decoded straight to about
/// twice the target size, as `BoxReducer` would leave it, and never held at full size.
final class WebPReader: ImageReader {
    let format = ImageFormat.webp
    let width: Int
    let height: Int
    let orientation: Int
    let metadata: ExifMetadata
    let colourProfile: ColourProfile?
    private let input: EncodedInput
    private let hasAlpha: Bool

    init(_ input: EncodedInput) throws(ImagingError) {
        self.input = input
        var features = WebPBitstreamFeatures()
        let base = input.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let status = WebPGetFeatures(base, input.bytes.count, &features)
        guard status == VP8_STATUS_OK else { throw Self.failure(status) }
        guard features.has_animation == 0 else {
            throw .unsupported(.webp, "is animated; post a still photo instead")
        }
        guard features.width > 0, features.height > 0 else { throw .corrupt(.webp, "image has no pixels") }
        width = Int(features.width)
        height = Int(features.height)
        hasAlpha = features.has_alpha != 0
        let (exif, icc) = Self.chunks(input.bytes)
        metadata = exif.map { Exif.metadata(tiff: Exif.strippingExifHeader($0)) } ?? ExifMetadata()
        orientation = metadata.orientation ?? 1
        colourProfile = icc.map(ColourProfile.icc)
    }

    func decode(atLeast: (width: Int, height: Int)?) throws(ImagingError) -> any RowSource {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw .corrupt(.webp, "libwebp version mismatch") }
        var (w, h) = (width, height)
        if let atLeast {
            let factor = max(1, min(width / (2 * max(1, atLeast.width)), height / (2 * max(1, atLeast.height))))
            if factor > 1 {
                (w, h) = ((width + factor - 1) / factor, (height + factor - 1) / factor)
                config.options.use_scaling = 1
                config.options.scaled_width = Int32(w)
                config.options.scaled_height = Int32(h)
            }
        }
        let channels = hasAlpha ? 4 : 3
        let buffer = PixelBuffer(count: w * h * channels)
        config.output.colorspace = hasAlpha ? MODE_RGBA : MODE_RGB
        config.output.is_external_memory = 1
        config.output.u.RGBA.rgba = buffer.base
        config.output.u.RGBA.stride = Int32(w * channels)
        config.output.u.RGBA.size = buffer.count
        let base = input.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        let status = WebPDecode(base, input.bytes.count, &config)
        WebPFreeDecBuffer(&config.output)
        guard status == VP8_STATUS_OK else { throw Self.failure(status) }
        return BufferRows(width: w, height: h, base: buffer.base, stride: w * channels, channels: channels, owner: buffer)
    }

    private static func failure(_ status: VP8StatusCode) -> ImagingError {
        switch status {
        case VP8_STATUS_UNSUPPORTED_FEATURE: .unsupported(.webp, "uses a feature we cannot decode", detail: "VP8_STATUS_UNSUPPORTED_FEATURE")
        case VP8_STATUS_NOT_ENOUGH_DATA: .corrupt(.webp, "the file ends early")
        default: .corrupt(.webp, "libwebp status \(status.rawValue)")
        }
    }

    /// The EXIF and ICCP chunks of an extended (VP8X) file; a plain file has neither.
    private static func chunks(_ bytes: UnsafeRawBufferPointer) -> (exif: [UInt8]?, icc: [UInt8]?) {
        var data = WebPData(bytes: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), size: bytes.count)
        guard let demux = WebPDemux(&data) else { return (nil, nil) }
        defer { WebPDemuxDelete(demux) }
        func chunk(_ fourCC: String, limit: Int) -> [UInt8]? {
            var iterator = WebPChunkIterator()
            guard WebPDemuxGetChunk(demux, fourCC, 1, &iterator) != 0 else { return nil }
            defer { WebPDemuxReleaseChunkIterator(&iterator) }
            let size = iterator.chunk.size
            guard size > 0, size <= limit, let start = iterator.chunk.bytes else { return nil }
            return Array(UnsafeBufferPointer(start: start, count: size))
        }
        return (chunk("EXIF", limit: HEIFReader.maxExifBytes), chunk("ICCP", limit: ColourProfile.maxICCBytes))
    }
}
