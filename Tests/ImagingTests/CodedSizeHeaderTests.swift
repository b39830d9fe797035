import CDe265
import CHeif
import ImageFixtures
import Testing

@testable import Imaging

/// The coded-size readers on headers built here bit by bit from H.265 §7.3.2.2 and AV1 §5.5, with the optional
/// parts whose lengths decide where the size lies.
struct CodedSizeHeaderTests {
    /// Writes fields most significant bit first.
    struct BitWriter {
        var bytes: [UInt8] = []
        var count = 0

        mutating func write(_ value: Int, _ bits: Int) {
            for bit in stride(from: bits - 1, through: 0, by: -1) {
                if count % 8 == 0 { bytes.append(0) }
                bytes[bytes.count - 1] |= UInt8((value >> bit) & 1) << (7 - UInt8(count % 8))
                count += 1
            }
        }

        mutating func unsignedExpGolomb(_ value: Int) {
            let code = value + 1
            let length = Int.bitWidth - code.leadingZeroBitCount
            write(0, length - 1)
            write(code, length)
        }
    }

    /// An SPS NAL unit with `subLayers` sub-layers (each with a profile and a level) and emulation-prevention bytes
    /// inserted where the payload has two zero bytes before a byte of 0 to 3, as encoders write them.
    static func sequenceParameterSet(width: Int, height: Int, subLayers: Int, chromaFormat: Int = 1) -> [UInt8] {
        var writer = BitWriter()
        writer.write(0, 4)  // sps_video_parameter_set_id
        writer.write(subLayers, 3)
        writer.write(1, 1)
        writer.write(0, 96)  // general profile, tier and level: zeros, which need emulation prevention
        for _ in 0..<subLayers { writer.write(0b11, 2) }
        if subLayers > 0 { writer.write(0, 2 * (8 - subLayers)) }
        for _ in 0..<subLayers {
            writer.write(0, 88)
            writer.write(0x5D, 8)
        }
        writer.unsignedExpGolomb(3)  // sps_seq_parameter_set_id
        writer.unsignedExpGolomb(chromaFormat)
        if chromaFormat == 3 { writer.write(0, 1) }
        writer.unsignedExpGolomb(width)
        writer.unsignedExpGolomb(height)
        writer.write(1, 1)  // the rest of an SPS does not matter to the size
        var escaped: [UInt8] = []
        var zeros = 0
        for byte in writer.bytes {
            if zeros >= 2 && byte <= 3 {
                escaped.append(3)
                zeros = 0
            }
            escaped.append(byte)
            zeros = byte == 0 ? zeros + 1 : 0
        }
        return [0x42, 0x01] + escaped
    }

    @Test(
        "an HEVC sequence parameter set's size is read after its profile_tier_level, emulation prevention removed",
        arguments: [(0, 1), (1, 1), (3, 3), (6, 0)])
    func hevcSizeAfterProfileTierLevel(subLayers: Int, chromaFormat: Int) {
        let nal = Self.sequenceParameterSet(width: 8192, height: 4320, subLayers: subLayers, chromaFormat: chromaFormat)

        #expect(nal.count > HEVCSequenceParameters.rbsp(nal).count, "the test SPS has emulation-prevention bytes")
        #expect(HEVCSequenceParameters.isBaseLayerSPS(nal[0], nal[1]))
        #expect(HEVCSequenceParameters.codedSize(nal: nal) == CodedSize(width: 8192, height: 4320))
    }

    @Test("a truncated HEVC sequence parameter set has no size, and other layers' are not the decoder's")
    func hevcTruncatedAndOtherLayers() {
        let nal = Self.sequenceParameterSet(width: 4096, height: 4096, subLayers: 2)

        for length in 0..<nal.count - 4 {
            #expect(HEVCSequenceParameters.codedSize(nal: nal.prefix(length)) == nil, "\(length) bytes")
        }
        #expect(!HEVCSequenceParameters.isBaseLayerSPS(0x42, 0x09))
        #expect(!HEVCSequenceParameters.isBaseLayerSPS(0x40, 0x01))
    }

    /// An AV1 sequence header OBU payload with timing and decoder model info and `operatingPoints` points, the
    /// even ones with decoder model parameters and initial display delays.
    static func av1SequenceHeader(width: Int, height: Int, operatingPoints: Int, reduced: Bool = false) -> [UInt8] {
        var writer = BitWriter()
        writer.write(0, 3)  // seq_profile
        writer.write(reduced ? 1 : 0, 1)  // still_picture
        writer.write(reduced ? 1 : 0, 1)
        if reduced {
            writer.write(8, 5)
        } else {
            writer.write(1, 1)  // timing_info_present_flag
            writer.write(1001, 32)
            writer.write(60_000, 32)
            writer.write(1, 1)  // equal_picture_interval
            writer.write(0b00101, 5)  // uvlc: two leading zeros, value 4
            writer.write(1, 1)  // decoder_model_info_present_flag
            writer.write(20, 5)  // buffer_delay_length_minus_1: 21-bit delays
            writer.write(90_000, 32)
            writer.write(31, 5)
            writer.write(22, 5)
            writer.write(1, 1)  // initial_display_delay_present_flag
            writer.write(operatingPoints - 1, 5)
            for point in 0..<operatingPoints {
                writer.write(0x103, 12)
                writer.write(point == 1 ? 5 : 12, 5)  // seq_level_idx; above 7 a tier bit follows
                if point != 1 { writer.write(1, 1) }
                writer.write(point % 2 == 0 ? 1 : 0, 1)  // decoder_model_present_for_this_op
                if point % 2 == 0 { writer.write(0x1F_FFFF, 21 + 21 + 1) }
                writer.write(point % 2 == 0 ? 1 : 0, 1)  // initial_display_delay_present_for_this_op
                if point % 2 == 0 { writer.write(9, 4) }
            }
        }
        writer.write(15, 4)  // frame_width_bits_minus_1
        writer.write(13, 4)
        writer.write(width - 1, 16)
        writer.write(height - 1, 14)
        writer.write(0b1010_1010, 8)  // the rest of the header
        return writer.bytes
    }

    @Test("an AV1 sequence header's maximum frame size is read past timing, decoder model and operating points", arguments: [1, 3, 32])
    func av1SizeAfterOperatingPoints(operatingPoints: Int) {
        let header = Self.av1SequenceHeader(width: 8192, height: 8192, operatingPoints: operatingPoints)

        #expect(AV1SequenceHeader.codedSize(sequenceHeader: header) == CodedSize(width: 8192, height: 8192))
    }

    @Test("a reduced still-picture AV1 header has its size right after the level")
    func av1ReducedStillPicture() {
        let header = Self.av1SequenceHeader(width: 640, height: 480, operatingPoints: 1, reduced: true)

        #expect(AV1SequenceHeader.codedSize(sequenceHeader: header) == CodedSize(width: 640, height: 480))
    }

    @Test("AV1 sequence headers are found among OBUs, with and without extension bytes, after a temporal delimiter")
    func av1HeadersAmongOBUs() {
        let header = Self.av1SequenceHeader(width: 4000, height: 3000, operatingPoints: 2)
        // temporal delimiter (type 2, size 0); sequence header with an extension byte; padding (type 15).
        let obus: [UInt8] = [0x12, 0x00] + [0x0E, 0x00, UInt8(header.count)] + header + [0x7A, 0x02, 0xAA, 0xBB]
        let sizes = obus.withUnsafeBytes { AV1SequenceHeader.codedSizes(in: ByteRanges($0, [0..<5, 5..<$0.count])) }

        #expect(sizes == [CodedSize(width: 4000, height: 3000)])
    }

    @Test("our HEVC decoder refuses a sequence parameter set over the pipeline's limits before libde265 sees it")
    func hevcDecoderRefusesOversizedSPS() throws {
        let decoder = try #require(de265_new_decoder())
        defer { _ = de265_free_decoder(decoder) }
        for (side, refused) in [(8192, true), (4096, false)] {
            let nal = Self.sequenceParameterSet(width: side, height: side, subLayers: 0)
            let data = PNGBuilder.bigEndian(nal.count) + nal

            let error = data.withUnsafeBufferPointer { HEVCDecoder.pushNALUnits(decoder, $0.baseAddress!, $0.count) }

            #expect((error.subcode == heif_suberror_Security_limit_exceeded) == refused, "\(side)")
        }
    }
}
