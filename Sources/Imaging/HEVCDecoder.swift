import CDe265
import CHeif
import Foundation

/// libheif's HEVC decoder, registered in place of its built-in one: the same libde265, with a worker thread per core.
///
/// libheif 1.15's own libde265 plugin starts one worker thread, so a HEIC stored as a single image (as libheif's
/// encoder and some Android phones write it) decodes on one core however many the box has; HEVC decoding is most of
/// the time such a photo takes. libde265 spreads a picture over its workers by wavefront rows when the stream allows
/// it (x265 writes them by default) and always spreads deblocking and SAO. Grid images (iPhones) already decode
/// their tiles on two threads in libheif; each tile's decoder gets workers too, which costs a few thread starts.
enum HEVCDecoder {
    /// The name libheif lists the decoder by (`heif_decoder_descriptor_get_id_name`).
    static let idName: StaticString = "grain-stories-libde265"

    /// Worker threads per decoder: one per core, at most four.
    static let workerThreads = Int32(min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 4))

    /// The largest picture a sequence parameter set may declare, however the container describes it: the
    /// pipeline's limits (the caller's may be lower; `HEIFCodedSize` holds each picture to those and to its
    /// declared size before libheif decodes anything). A second line of defence, since this decoder sees the
    /// stream but not the file.
    static let limits = PixelLimits(maxPixels: PipelineOptions().maxPixels, maxSide: PipelineOptions.maxSide)

    /// Registers the decoder with libheif, once per process (after `heif_init`). libheif keeps the pointer.
    static let registered: Bool = {
        let plugin = UnsafeMutablePointer<heif_decoder_plugin>.allocate(capacity: 1)
        plugin.initialize(to: heif_decoder_plugin())
        plugin.pointee.plugin_api_version = 3
        plugin.pointee.get_plugin_name = { cString(HEVCDecoder.idName) }
        plugin.pointee.init_plugin = {}
        plugin.pointee.deinit_plugin = {}
        // Above the built-in plugin's default of 100, so libheif picks this one.
        plugin.pointee.does_support_format = { $0 == heif_compression_HEVC ? 200 : 0 }
        plugin.pointee.new_decoder = { decoder in
            guard let decoder, let context = de265_new_decoder() else {
                return failure(heif_suberror_Unspecified, "libde265 could not start a decoder")
            }
            // A decoder without its workers still decodes, on the calling thread.
            _ = de265_start_worker_threads(context, HEVCDecoder.workerThreads)
            decoder.pointee = UnsafeMutableRawPointer(context)
            return success()
        }
        plugin.pointee.free_decoder = { decoder in
            if let decoder { _ = de265_free_decoder(decoder) }
        }
        plugin.pointee.push_data = { decoder, data, size in
            guard let decoder, let data else { return failure(heif_suberror_End_of_data, "no HEVC data") }
            return pushNALUnits(decoder, data.assumingMemoryBound(to: UInt8.self), size)
        }
        plugin.pointee.decode_image = { decoder, image in
            guard let decoder, let image else { return failure(heif_suberror_Unspecified, "no HEVC decoder") }
            return decodePicture(decoder, into: image)
        }
        plugin.pointee.set_strict_decoding = { _, _ in }
        plugin.pointee.id_name = cString(idName)
        return heif_register_decoder_plugin(plugin).code == heif_error_Ok
    }()

    /// libheif hands over the decoder configuration and the image's data as NAL units, each after a four-byte
    /// big-endian length (ISO/IEC 14496-15). A length past the end is refused rather than read, and so is a
    /// sequence parameter set over `limits` (rounded up to whole blocks) before libde265 allocates for it.
    static func pushNALUnits(
        _ decoder: UnsafeMutableRawPointer,
        _ data: UnsafePointer<UInt8>,
        _ size: Int
    ) -> heif_error {
        var offset = 0
        while offset < size {
            guard size - offset >= 4 else { return failure(heif_suberror_End_of_data, "truncated HEVC NAL unit length") }
            let length = Int(data[offset]) << 24 | Int(data[offset + 1]) << 16 | Int(data[offset + 2]) << 8 | Int(data[offset + 3])
            offset += 4
            guard length <= size - offset, length <= Int(Int32.max) else {
                return failure(heif_suberror_End_of_data, "HEVC NAL unit runs past the end of the data")
            }
            if length >= 2, HEVCSequenceParameters.isBaseLayerSPS(data[offset], data[offset + 1]) {
                let prefix = UnsafeBufferPointer(start: data + offset, count: min(length, HEVCSequenceParameters.prefixLength + 2))
                guard let size = HEVCSequenceParameters.codedSize(nal: prefix) else {
                    return failure(heif_suberror_Invalid_parameter_value, "unreadable HEVC sequence parameter set")
                }
                guard size.mayCarry(within: limits) else {
                    return failure(heif_suberror_Security_limit_exceeded, "HEVC sequence parameter set over the size limits")
                }
            }
            let status = de265_push_NAL(decoder, data + offset, Int32(length), 0, nil)
            guard de265_isOK(status) != 0 else { return failure(heif_suberror_Unspecified, status) }
            offset += length
        }
        return success()
    }

    /// Decodes everything pushed and hands libheif the first picture, with the colour description the stream
    /// carries: as planar RGB when the stream declares a matrix `YCbCrMatrix` converts and has 8-bit samples,
    /// otherwise as coded (planar YCbCr or monochrome) for libheif to convert. libheif then applies the
    /// container's transforms.
    private static func decodePicture(
        _ decoder: UnsafeMutableRawPointer,
        into output: UnsafeMutablePointer<OpaquePointer?>
    ) -> heif_error {
        _ = de265_flush_data(decoder)
        var more: Int32 = 1
        while more != 0 {
            more = 0
            let status = de265_decode(decoder, &more)
            if status == DE265_ERROR_WAITING_FOR_INPUT_DATA { break }
            guard de265_isOK(status) != 0 else { return failure(heif_suberror_Unspecified, status) }
            if let picture = de265_peek_next_picture(decoder) {
                defer { de265_release_next_picture(decoder) }
                return convert(picture, into: output)
            }
        }
        return failure(heif_suberror_End_of_data, "the HEVC data holds no picture")
    }

    private static func convert(_ picture: OpaquePointer, into output: UnsafeMutablePointer<OpaquePointer?>) -> heif_error {
        let chroma: heif_chroma
        switch de265_get_chroma_format(picture) {
        case de265_chroma_mono: chroma = heif_chroma_monochrome
        case de265_chroma_420: chroma = heif_chroma_420
        case de265_chroma_422: chroma = heif_chroma_422
        case de265_chroma_444: chroma = heif_chroma_444
        default: return failure(heif_suberror_Unsupported_color_conversion, "unknown HEVC chroma format")
        }
        let monochrome = chroma == heif_chroma_monochrome
        let planes: [Int32] = monochrome ? [0] : [0, 1, 2]
        let width = de265_get_image_width(picture, 0)
        let height = de265_get_image_height(picture, 0)
        guard width > 0, height > 0, planes.allSatisfy({ (1...16).contains(de265_get_bits_per_pixel(picture, $0)) }) else {
            return failure(heif_suberror_Invalid_image_size, "HEVC picture has no pixels")
        }
        var image: OpaquePointer?
        let result: heif_error
        if !monochrome, planes.allSatisfy({ de265_get_bits_per_pixel(picture, $0) == 8 }), let matrix = conversionMatrix(picture) {
            result = rgbImage(picture, chroma: chroma, matrix: matrix, into: &image)
        } else {
            result = yCbCrImage(picture, chroma: chroma, planes: planes, into: &image)
        }
        guard result.code == heif_error_Ok, let image else {
            if let image { heif_image_release(image) }
            return result
        }
        if let nclx = heif_nclx_color_profile_alloc() {
            nclx.pointee.color_primaries = heif_color_primaries(UInt32(de265_get_image_colour_primaries(picture)))
            nclx.pointee.transfer_characteristics = heif_transfer_characteristics(
                UInt32(de265_get_image_transfer_characteristics(picture)))
            nclx.pointee.matrix_coefficients = heif_matrix_coefficients(UInt32(de265_get_image_matrix_coefficients(picture)))
            nclx.pointee.full_range_flag = UInt8(de265_get_image_full_range_flag(picture) != 0 ? 1 : 0)
            _ = heif_image_set_nclx_color_profile(image, nclx)
            heif_nclx_color_profile_free(nclx)
        }
        output.pointee = image
        return success()
    }

    /// The matrix to convert `picture` with: the container's colour description when the decoding thread holds
    /// one (`ContainerColour`), as libheif gives the container precedence, or else the stream's own (VUI). Nil
    /// when neither names a matrix `YCbCrMatrix` covers: the picture goes to libheif as coded.
    private static func conversionMatrix(_ picture: OpaquePointer) -> YCbCrMatrix? {
        if let container = ContainerColour.current {
            return YCbCrMatrix(matrixCoefficients: container.matrixCoefficients, fullRange: container.fullRange)
        }
        let matrix = Int(de265_get_image_matrix_coefficients(picture))
        // 2: the stream does not say.
        guard matrix != 2 else { return nil }
        return YCbCrMatrix(matrixCoefficients: matrix, fullRange: de265_get_image_full_range_flag(picture) != 0)
    }

    /// The picture as it was coded: planar YCbCr (or monochrome) at its own bit depth, for libheif to convert.
    private static func yCbCrImage(
        _ picture: OpaquePointer,
        chroma: heif_chroma,
        planes: [Int32],
        into image: inout OpaquePointer?
    ) -> heif_error {
        let monochrome = chroma == heif_chroma_monochrome
        let created = heif_image_create(
            de265_get_image_width(picture, 0),
            de265_get_image_height(picture, 0),
            monochrome ? heif_colorspace_monochrome : heif_colorspace_YCbCr,
            chroma,
            &image
        )
        guard created.code == heif_error_Ok, let image else { return created }
        let channels = [heif_channel_Y, heif_channel_Cb, heif_channel_Cr]
        for plane in planes {
            let channel = channels[Int(plane)]
            let width = de265_get_image_width(picture, plane)
            let height = de265_get_image_height(picture, plane)
            let bits = de265_get_bits_per_pixel(picture, plane)
            let added = heif_image_add_plane(image, channel, width, height, bits)
            guard added.code == heif_error_Ok else { return added }
            var sourceStride: Int32 = 0
            var destinationStride: Int32 = 0
            guard width > 0, height > 0,
                let source = de265_get_image_plane(picture, plane, &sourceStride),
                let destination = heif_image_get_plane(image, channel, &destinationStride)
            else { return failure(heif_suberror_Unspecified, "HEVC picture plane missing") }
            let rowBytes = Int(width) * ((Int(bits) + 7) / 8)
            for row in 0..<Int(height) {
                (destination + row * Int(destinationStride)).update(from: source + row * Int(sourceStride), count: rowBytes)
            }
        }
        return success()
    }

    /// The picture converted to planar 8-bit RGB with the matrix its stream declares, in bands of rows on
    /// `workerThreads` threads. libheif 1.15 turns every YCbCr picture into planar RGB on one thread before anything
    /// else (and a caller's YCbCr request into RGB and back); a picture that arrives as planar RGB passes through.
    private static func rgbImage(
        _ picture: OpaquePointer,
        chroma: heif_chroma,
        matrix: YCbCrMatrix,
        into image: inout OpaquePointer?
    ) -> heif_error {
        let width = Int(de265_get_image_width(picture, 0))
        let height = Int(de265_get_image_height(picture, 0))
        let created = heif_image_create(Int32(width), Int32(height), heif_colorspace_RGB, heif_chroma_444, &image)
        guard created.code == heif_error_Ok, let image else { return created }
        var destinations: [(base: UnsafeMutablePointer<UInt8>, stride: Int)] = []
        for channel in [heif_channel_R, heif_channel_G, heif_channel_B] {
            let added = heif_image_add_plane(image, channel, Int32(width), Int32(height), 8)
            var stride: Int32 = 0
            guard added.code == heif_error_Ok, let base = heif_image_get_plane(image, channel, &stride) else {
                return added.code == heif_error_Ok ? failure(heif_suberror_Unspecified, "RGB plane missing") : added
            }
            destinations.append((base, Int(stride)))
        }
        let horizontalShift = chroma == heif_chroma_444 ? 0 : 1
        let verticalShift = chroma == heif_chroma_420 ? 1 : 0
        var sources: [(base: UnsafePointer<UInt8>, stride: Int)] = []
        for plane: Int32 in 0..<3 {
            var stride: Int32 = 0
            // Each plane must cover the picture at its subsampling, or rows would be read past its end.
            let (x, y) = plane == 0 ? (0, 0) : (horizontalShift, verticalShift)
            guard Int(de265_get_image_width(picture, plane)) >= (width + x) >> x,
                Int(de265_get_image_height(picture, plane)) >= (height + y) >> y,
                let base = de265_get_image_plane(picture, plane, &stride)
            else { return failure(heif_suberror_Invalid_image_size, "HEVC chroma planes do not cover the picture") }
            sources.append((base, Int(stride)))
        }
        let job = RGBConversion(
            matrix: matrix,
            sources: sources,
            destinations: destinations,
            width: width,
            height: height,
            horizontalShift: horizontalShift,
            verticalShift: verticalShift,
            bands: Int(workerThreads)
        )
        DispatchQueue.concurrentPerform(iterations: job.bands) { job.convert(band: $0) }
        return success()
    }

    private static func success() -> heif_error {
        heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: cString("Success"))
    }

    private static func failure(_ subcode: heif_suberror_code, _ message: StaticString) -> heif_error {
        heif_error(code: heif_error_Decoder_plugin_error, subcode: subcode, message: cString(message))
    }

    /// libde265's error texts are static strings, so libheif may keep the pointer.
    private static func failure(_ subcode: heif_suberror_code, _ status: de265_error) -> heif_error {
        heif_error(code: heif_error_Decoder_plugin_error, subcode: subcode, message: de265_get_error_text(status))
    }
}

/// A HEIF container's own colour description (its `nclx`), which the HEVC decoder cannot see, handed to it on the
/// decoding thread.
///
/// `HEIFReader` holds one around `heif_decode_image` for a file that has one, and has libheif decode on the
/// calling thread (libheif 1.15 otherwise decodes on a thread of its own), so the decoder converts with the matrix
/// libheif would use. Files without one (an iPhone's carries an ICC profile) are converted as their streams say.
struct ContainerColour {
    let matrixCoefficients: Int
    let fullRange: Bool

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The description the current thread holds, if any.
    static var current: ContainerColour? {
        pthread_getspecific(key)?.assumingMemoryBound(to: ContainerColour.self).pointee
    }

    /// Runs `body` with `colour` held by the current thread; with nil, runs it as it is.
    static func holding<R>(_ colour: ContainerColour?, _ body: () throws(ImagingError) -> R) throws(ImagingError) -> R {
        guard var held = colour else { return try body() }
        return try withUnsafeMutablePointer(to: &held) { pointer throws(ImagingError) -> R in
            pthread_setspecific(key, pointer)
            defer { pthread_setspecific(key, nil) }
            return try body()
        }
    }
}

/// One picture's YCbCr-to-RGB conversion, split into bands of rows for `concurrentPerform`: the source planes are
/// only read, and each band writes only its own rows of the destination planes.
private struct RGBConversion: @unchecked Sendable {
    let matrix: YCbCrMatrix
    let sources: [(base: UnsafePointer<UInt8>, stride: Int)]
    let destinations: [(base: UnsafeMutablePointer<UInt8>, stride: Int)]
    let width: Int
    let height: Int
    let horizontalShift: Int
    let verticalShift: Int
    let bands: Int

    func convert(band: Int) {
        let rowsPerBand = (height + bands - 1) / bands
        var row = band * rowsPerBand
        let end = min(height, row + rowsPerBand)
        while row < end {
            let chromaRow = row >> verticalShift
            matrix.convertRow(
                luma: sources[0].base + row * sources[0].stride,
                cb: sources[1].base + chromaRow * sources[1].stride,
                cr: sources[2].base + chromaRow * sources[2].stride,
                chromaShift: horizontalShift,
                width: width,
                into: (
                    destinations[0].base + row * destinations[0].stride,
                    destinations[1].base + row * destinations[1].stride,
                    destinations[2].base + row * destinations[2].stride
                )
            )
            row += 1
        }
    }
}

/// A static string as the `const char*` libheif's plugin structures hold for the life of the process.
private func cString(_ string: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(string.utf8Start).assumingMemoryBound(to: CChar.self)
}
