/// The largest frame an AV1 sequence header allows (max_frame_width_minus_1 and max_frame_height_minus_1, AV1
/// §5.5.1), found among the OBUs libheif hands its AV1 decoder, before the decoder sees them.
enum AV1SequenceHeader {
    static let sequenceHeaderType = 1

    /// The bytes of a sequence header OBU read: enough for 32 operating points, each with decoder model
    /// parameters of the longest delay fields.
    static let prefixLength = 512

    /// Walks the OBUs of `data` (AV1 §5.3, each with its size field as AVIF requires) and reads every sequence
    /// header among them; nil when one cannot be read. The walk stops at an OBU the decoder could not parse
    /// either (a forbidden bit, a size past the end), since no decoder reads past it.
    static func codedSizes(in data: ByteRanges) -> [CodedSize]? {
        var sizes: [CodedSize] = []
        var offset = 0
        while offset < data.count {
            // One header byte, one extension byte, at most eight bytes of leb128 size.
            let head = data.read(offset, 10)
            guard let first = head.first, first & 0x80 == 0 else { break }
            var length = 1 + (first & 0x04 != 0 ? 1 : 0)
            let size: Int
            if first & 0x02 != 0 {
                guard let (value, bytes) = leb128(head.dropFirst(length)) else { break }
                length += bytes
                size = value
            } else {
                size = data.count - offset - length
            }
            guard length <= head.count, size >= 0, size <= data.count - offset - length else { break }
            if Int(first >> 3) & 0x0F == sequenceHeaderType {
                guard let coded = codedSize(sequenceHeader: data.read(offset + length, min(size, prefixLength))) else {
                    return nil
                }
                sizes.append(coded)
            }
            offset += length + size
        }
        return sizes
    }

    /// leb128() (§4.10.5): at most eight bytes, a value below 2³².
    private static func leb128(_ bytes: some Collection<UInt8>) -> (value: Int, length: Int)? {
        var value = 0
        for (index, byte) in bytes.prefix(8).enumerated() {
            value |= Int(byte & 0x7F) << (7 * index)
            if byte & 0x80 == 0 { return value <= Int(UInt32.max) ? (value, index + 1) : nil }
        }
        return nil
    }

    /// max_frame_width_minus_1 + 1 × max_frame_height_minus_1 + 1 of a sequence_header_obu payload, or nil.
    static func codedSize(sequenceHeader payload: [UInt8]) -> CodedSize? {
        var reader = BitReader(payload)
        do {
            try reader.skip(3)  // seq_profile
            try reader.skip(1)  // still_picture
            if try reader.flag() {
                try reader.skip(5)  // reduced_still_picture_header: seq_level_idx[0] alone
            } else {
                try skipOperatingPoints(&reader)
            }
            let widthBits = try reader.read(4) + 1
            let heightBits = try reader.read(4) + 1
            let width = try reader.read(widthBits) + 1
            let height = try reader.read(heightBits) + 1
            return CodedSize(width: width, height: height)
        } catch {
            return nil
        }
    }

    /// timing_info, decoder_model_info and the operating points, whose lengths depend on their own flags.
    private static func skipOperatingPoints(_ reader: inout BitReader) throws(BitReader.End) {
        var decoderModelInfo = false
        var bufferDelayLength = 0
        if try reader.flag() {  // timing_info_present_flag
            try reader.skip(64)  // num_units_in_display_tick, time_scale
            if try reader.flag() {  // equal_picture_interval
                _ = try reader.uvlc()  // num_ticks_per_picture_minus_1
            }
            decoderModelInfo = try reader.flag()
            if decoderModelInfo {
                bufferDelayLength = try reader.read(5) + 1
                // num_units_in_decoding_tick, buffer_removal_time_length_minus_1,
                // frame_presentation_time_length_minus_1.
                try reader.skip(32 + 5 + 5)
            }
        }
        let initialDisplayDelay = try reader.flag()
        let operatingPoints = try reader.read(5) + 1
        for _ in 0..<operatingPoints {
            try reader.skip(12)  // operating_point_idc
            let level = try reader.read(5)
            if level > 7 { try reader.skip(1) }  // seq_tier
            if decoderModelInfo, try reader.flag() {
                // decoder_buffer_delay, encoder_buffer_delay, low_delay_mode_flag.
                try reader.skip(2 * bufferDelayLength + 1)
            }
            if initialDisplayDelay, try reader.flag() {
                try reader.skip(4)  // initial_display_delay_minus_1
            }
        }
    }
}
