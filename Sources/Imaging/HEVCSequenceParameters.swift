/// The picture size an HEVC sequence parameter set declares (H.265 §7.3.2.2), read before libde265 sees it.
enum HEVCSequenceParameters {
    /// The bytes of a NAL unit read for its size: enough for the largest profile_tier_level (seven sub-layers) and
    /// the four exp-Golomb numbers after it.
    static let prefixLength = 192

    /// Whether a NAL unit's two-byte header marks a sequence parameter set that libde265 acts on: type 33 in the
    /// base layer (libde265 discards every NAL unit of a higher layer).
    static func isBaseLayerSPS(_ header0: UInt8, _ header1: UInt8) -> Bool {
        (header0 >> 1) & 0x3F == 33 && (header0 & 1) == 0 && header1 >> 3 == 0
    }

    /// pic_width_in_luma_samples × pic_height_in_luma_samples of a sequence parameter set NAL unit (its header
    /// included; only the first `prefixLength` bytes are needed), or nil when those bytes are no valid one.
    static func codedSize(nal: some Collection<UInt8>) -> CodedSize? {
        var reader = BitReader(rbsp(nal.dropFirst(2).prefix(prefixLength)))
        do {
            try reader.skip(4)  // sps_video_parameter_set_id
            let subLayers = try reader.read(3)  // sps_max_sub_layers_minus1
            // libde265 refuses more than seven sub-layers.
            guard subLayers < 7 else { return nil }
            try reader.skip(1)  // sps_temporal_id_nesting_flag
            try skipProfileTierLevel(&reader, subLayers: subLayers)
            guard try reader.unsignedExpGolomb() <= 15 else { return nil }  // sps_seq_parameter_set_id
            let chromaFormat = try reader.unsignedExpGolomb()
            guard chromaFormat <= 3 else { return nil }
            if chromaFormat == 3 { try reader.skip(1) }  // separate_colour_plane_flag
            let width = try reader.unsignedExpGolomb()
            let height = try reader.unsignedExpGolomb()
            guard width > 0, height > 0 else { return nil }
            return CodedSize(width: width, height: height)
        } catch {
            return nil
        }
    }

    /// profile_tier_level(1, sps_max_sub_layers_minus1), §7.3.3: its length depends on which sub-layers carry a
    /// profile and a level.
    private static func skipProfileTierLevel(_ reader: inout BitReader, subLayers: Int) throws(BitReader.End) {
        // general_profile_space … general_level_idc: 2 + 1 + 5 + 32 + 4 + 43 + 1 + 8 bits.
        try reader.skip(96)
        var present: [(profile: Bool, level: Bool)] = []
        for _ in 0..<subLayers {
            present.append((try reader.flag(), try reader.flag()))
        }
        if subLayers > 0 {
            try reader.skip(2 * (8 - subLayers))  // reserved_zero_2bits
        }
        for layer in present {
            if layer.profile { try reader.skip(88) }
            if layer.level { try reader.skip(8) }
        }
    }

    /// The payload with its emulation-prevention bytes removed (a 3 after two zero bytes, §7.4.2).
    static func rbsp(_ payload: some Collection<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(payload.count)
        var zeros = 0
        for byte in payload {
            if zeros >= 2 && byte == 3 {
                zeros = 0
                continue
            }
            zeros = byte == 0 ? zeros + 1 : 0
            out.append(byte)
        }
        return out
    }
}
