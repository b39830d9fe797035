import CHeif

/// HEIC and AVIF through libheif.
///
/// libheif applies the file's own transformations (`irot`, `imir`, `clap`) while decoding, as the HEIF standard
/// requires; the EXIF orientation in such files describes the coded image and is therefore not applied again
/// (libvips and Apple's decoders behave the same way).
final class HEIFReader: ImageReader {
    let format: ImageFormat
    let width: Int
    let height: Int
    let orientation = 1
    let metadata: ExifMetadata
    let colourProfile: ColourProfile?
    private let context: OpaquePointer
    private let handle: OpaquePointer
    private let hasAlpha: Bool
    private let containerColour: ContainerColour?

    /// The EXIF item's bytes are copied out; larger ones are ignored.
    static let maxExifBytes = 1 << 20

    /// libheif's plugins must be registered once per process before the first context; ours (`HEVCDecoder`) after
    /// libheif's own, which it then outranks.
    static let initialized: Bool = heif_init(nil).code == heif_error_Ok && HEVCDecoder.registered

    /// Opens `input` with libheif, which reads the boxes but decodes nothing, then refuses it when the primary
    /// image or any picture decoding it would decode is over `limits` or larger than the file declares
    /// (`HEIFCodedSize`).
    init(_ input: EncodedInput, limits: PixelLimits) throws(ImagingError) {
        let sniffed = input.format ?? .heic
        format = sniffed
        guard Self.initialized, let context = heif_context_alloc() else {
            throw ImagingError(.corrupt, "The \(sniffed.name) decoder could not start.", format: sniffed)
        }
        self.context = context
        var error: heif_error
        if let path = input.path {
            error = heif_context_read_from_file(context, path, nil)
        } else {
            error = heif_context_read_from_memory_without_copy(context, input.bytes.baseAddress, input.bytes.count, nil)
        }
        var handle: OpaquePointer?
        if error.code == heif_error_Ok {
            error = heif_context_get_primary_image_handle(context, &handle)
        }
        guard error.code == heif_error_Ok, let handle else {
            // The message belongs to the context: read it before freeing the context.
            let failure = Self.failure(error, sniffed)
            heif_context_free(context)
            throw failure
        }
        self.handle = handle
        width = Int(heif_image_handle_get_width(handle))
        height = Int(heif_image_handle_get_height(handle))
        hasAlpha = heif_image_handle_has_alpha_channel(handle) != 0
        metadata = Self.exif(handle)
        colourProfile = Self.colourProfile(handle)
        containerColour = Self.containerColour(handle)
        // Grid images (every phone HEIC) decode their tiles on up to two threads: HEVC decoding is most of the
        // time a HEIC takes, and the caller's pool already bounds how many photos run at once. A container colour
        // description must reach our decoder on this thread (`ContainerColour`), so such a file decodes here, its
        // tiles one after another, each still on the decoder's workers.
        heif_context_set_max_decoding_threads(context, containerColour == nil ? 2 : 0)
        // Every property is set by now, so a throw runs deinit, which releases the handle and the context (the
        // fuzzer caught them freed twice).
        guard width > 0, height > 0 else { throw .corrupt(sniffed, "image has no pixels") }
        // The declared size first, so a photo merely over the limits is refused in the usual words.
        try limits.check(sniffed, width: width, height: height)
        try HEIFCodedSize.check(input.bytes, format: sniffed, limits: limits)
    }

    deinit {
        heif_image_handle_release(handle)
        heif_context_free(context)
    }

    /// HEIF decoders have no reduced-size decoding: the whole image is decoded, then resampled.
    ///
    /// An 8-bit picture without alpha (every phone's HEIC) comes as libheif holds it after decoding, planar RGB,
    /// and is interleaved row by row as the resampler reads it: asking for interleaved RGB would cost libheif
    /// another single-threaded pass and a second full-size buffer. Deeper pictures come interleaved, where libheif
    /// also reduces them to 8 bits.
    func decode(atLeast: (width: Int, height: Int)?) throws(ImagingError) -> any RowSource {
        let planar =
            !hasAlpha && heif_image_handle_get_luma_bits_per_pixel(handle) == 8
            && heif_image_handle_get_chroma_bits_per_pixel(handle) == 8
        guard let options = heif_decoding_options_alloc() else {
            throw ImagingError(.corrupt, "The \(format.name) decoder could not start.", format: format)
        }
        defer { heif_decoding_options_free(options) }
        options.pointee.convert_hdr_to_8bit = 1
        var image: OpaquePointer?
        let chroma = planar ? heif_chroma_444 : hasAlpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB
        let error = try ContainerColour.holding(containerColour) { () throws(ImagingError) in
            heif_decode_image(handle, &image, heif_colorspace_RGB, chroma, options)
        }
        guard error.code == heif_error_Ok, let image else { throw Self.failure(error, format) }
        let decoded = HEIFImage(image)
        if planar {
            return PlanarRows(width: width, height: height, planes: try Self.planes(image, width, height, format), owner: decoded)
        }
        var stride: Int32 = 0
        let channels = hasAlpha ? 4 : 3
        guard let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride),
            Int(heif_image_get_width(image, heif_channel_interleaved)) == width,
            Int(heif_image_get_height(image, heif_channel_interleaved)) == height,
            heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved) == 8,
            Int(stride) >= width * channels
        else { throw .corrupt(format, "decoded image does not match its header") }
        return BufferRows(width: width, height: height, base: plane, stride: Int(stride), channels: channels, owner: decoded)
    }

    /// The matrix and range of the container's `nclx` colour description, which libheif converts with in
    /// preference to the stream's.
    private static func containerColour(_ handle: OpaquePointer) -> ContainerColour? {
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        let status = heif_image_handle_get_nclx_color_profile(handle, &nclx).code
        defer { if let nclx { heif_nclx_color_profile_free(nclx) } }
        guard status == heif_error_Ok, let nclx else { return nil }
        return ContainerColour(
            matrixCoefficients: Int(nclx.pointee.matrix_coefficients.rawValue),
            fullRange: nclx.pointee.full_range_flag != 0
        )
    }

    /// The red, green and blue planes of a decoded planar RGB image, checked against the header's size.
    private static func planes(
        _ image: OpaquePointer,
        _ width: Int,
        _ height: Int,
        _ format: ImageFormat
    ) throws(ImagingError) -> [PlanarRows.Plane] {
        var planes: [PlanarRows.Plane] = []
        for channel in [heif_channel_R, heif_channel_G, heif_channel_B] {
            var stride: Int32 = 0
            guard let base = heif_image_get_plane_readonly(image, channel, &stride),
                Int(heif_image_get_width(image, channel)) == width,
                Int(heif_image_get_height(image, channel)) == height,
                heif_image_get_bits_per_pixel_range(image, channel) == 8,
                Int(stride) >= width
            else { throw .corrupt(format, "decoded image does not match its header") }
            planes.append(PlanarRows.Plane(base: base, stride: Int(stride)))
        }
        return planes
    }

    private static func failure(_ error: heif_error, _ format: ImageFormat) -> ImagingError {
        let message = error.message.map { String(cString: $0) } ?? "unknown libheif error"
        if error.code == heif_error_Decoder_plugin_error && error.subcode == heif_suberror_Security_limit_exceeded {
            return .tooLarge(format, codedOver: HEVCDecoder.limits, detail: message)
        }
        if error.code == heif_error_Unsupported_feature || error.code == heif_error_Unsupported_filetype
            || error.subcode == heif_suberror_Unsupported_codec
        {
            return .unsupported(format, "uses a compression or feature we cannot decode", detail: message)
        }
        return .corrupt(format, message)
    }

    /// The primary image's first EXIF item. Its payload starts with the offset of the TIFF header (ISO/IEC
    /// 23008-12 Annex A.2.1); some writers also keep the JPEG `Exif\0\0` prefix.
    private static func exif(_ handle: OpaquePointer) -> ExifMetadata {
        var id = heif_item_id()
        guard heif_image_handle_get_list_of_metadata_block_IDs(handle, "Exif", &id, 1) == 1 else { return ExifMetadata() }
        let size = heif_image_handle_get_metadata_size(handle, id)
        guard size > 4, size <= maxExifBytes else { return ExifMetadata() }
        var block = [UInt8](repeating: 0, count: size)
        guard block.withUnsafeMutableBytes({ heif_image_handle_get_metadata(handle, id, $0.baseAddress).code }) == heif_error_Ok
        else { return ExifMetadata() }
        let offset = block[0..<4].reduce(0) { $0 << 8 | Int($1) }
        guard offset <= size - 4 else { return ExifMetadata() }
        return Exif.metadata(tiff: Exif.strippingExifHeader(Array(block[(4 + offset)...])))
    }

    /// An ICC profile (`prof` or `rICC`) wins over `nclx`, as in libheif's own conversions.
    private static func colourProfile(_ handle: OpaquePointer) -> ColourProfile? {
        let size = heif_image_handle_get_raw_color_profile_size(handle)
        if size > 0, size <= ColourProfile.maxICCBytes {
            var profile = [UInt8](repeating: 0, count: size)
            let error = profile.withUnsafeMutableBytes { heif_image_handle_get_raw_color_profile(handle, $0.baseAddress) }
            if error.code == heif_error_Ok { return .icc(profile) }
        }
        var nclx: UnsafeMutablePointer<heif_color_profile_nclx>?
        let status = heif_image_handle_get_nclx_color_profile(handle, &nclx).code
        // libheif may allocate the profile and still report an error (the fuzzer found the leak): free it either way.
        defer { if let nclx { heif_nclx_color_profile_free(nclx) } }
        guard status == heif_error_Ok, let nclx else { return nil }
        return .nclx(
            primaries: Int(nclx.pointee.color_primaries.rawValue),
            transfer: Int(nclx.pointee.transfer_characteristics.rawValue)
        )
    }
}

/// Releases a decoded libheif image once the rows lent from it are done with.
private final class HEIFImage {
    let image: OpaquePointer

    init(_ image: OpaquePointer) {
        self.image = image
    }

    deinit {
        heif_image_release(image)
    }
}
