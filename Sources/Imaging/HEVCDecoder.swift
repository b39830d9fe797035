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

    /// Worker threads per decoder: one per core, at most four (more gave nothing on a 12 MP picture).
    static let workerThreads = Int32(min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 4))

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
            return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: cString("Success"))
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
    /// big-endian length (ISO/IEC 14496-15). A length past the end is refused rather than read.
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
            let status = de265_push_NAL(decoder, data + offset, Int32(length), 0, nil)
            guard de265_isOK(status) != 0 else { return failure(heif_suberror_Unspecified, status) }
            offset += length
        }
        return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: cString("Success"))
    }

    /// Decodes everything pushed and hands libheif the first picture as planar YCbCr (or monochrome), with the
    /// colour description the stream carries; libheif converts it to RGB and applies the container's transforms.
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
        var image: OpaquePointer?
        let created = heif_image_create(
            de265_get_image_width(picture, 0),
            de265_get_image_height(picture, 0),
            monochrome ? heif_colorspace_monochrome : heif_colorspace_YCbCr,
            chroma,
            &image
        )
        guard created.code == heif_error_Ok, let image else { return created }
        let channels = monochrome ? [heif_channel_Y] : [heif_channel_Y, heif_channel_Cb, heif_channel_Cr]
        for (index, channel) in channels.enumerated() {
            let plane = Int32(index)
            let width = de265_get_image_width(picture, plane)
            let height = de265_get_image_height(picture, plane)
            let bits = de265_get_bits_per_pixel(picture, plane)
            guard width > 0, height > 0, (1...16).contains(bits) else {
                heif_image_release(image)
                return failure(heif_suberror_Invalid_image_size, "HEVC picture plane has no pixels")
            }
            let added = heif_image_add_plane(image, channel, width, height, bits)
            var sourceStride: Int32 = 0
            var destinationStride: Int32 = 0
            guard added.code == heif_error_Ok,
                let source = de265_get_image_plane(picture, plane, &sourceStride),
                let destination = heif_image_get_plane(image, channel, &destinationStride)
            else {
                heif_image_release(image)
                return added.code == heif_error_Ok ? failure(heif_suberror_Unspecified, "HEVC picture plane missing") : added
            }
            let rowBytes = Int(width) * ((Int(bits) + 7) / 8)
            for row in 0..<Int(height) {
                (destination + row * Int(destinationStride)).update(from: source + row * Int(sourceStride), count: rowBytes)
            }
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
        return heif_error(code: heif_error_Ok, subcode: heif_suberror_Unspecified, message: cString("Success"))
    }

    private static func failure(_ subcode: heif_suberror_code, _ message: StaticString) -> heif_error {
        heif_error(code: heif_error_Decoder_plugin_error, subcode: subcode, message: cString(message))
    }

    /// libde265's error texts are static strings, so libheif may keep the pointer.
    private static func failure(_ subcode: heif_suberror_code, _ status: de265_error) -> heif_error {
        heif_error(code: heif_error_Decoder_plugin_error, subcode: subcode, message: de265_get_error_text(status))
    }
}

/// A static string as the `const char*` libheif's plugin structures hold for the life of the process.
private func cString(_ string: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(string.utf8Start).assumingMemoryBound(to: CChar.self)
}
