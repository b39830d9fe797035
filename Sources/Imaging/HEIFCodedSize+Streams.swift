/// The coded sizes of one item, from everything libheif hands its decoder: the configuration property's headers,
/// then the item's data.
extension HEIFCodedSize {
    /// Every base-layer sequence parameter set in the item's `hvcC` NAL unit arrays and among the NAL units of its
    /// data (each after a four-byte length, as libheif passes them): libde265 may activate any of them.
    func hevcSizes(_ id: UInt32) throws(ImagingError) -> [CodedSize] {
        var sizes: [CodedSize] = []
        for hvcC in items.properties(of: id, .hvcC) {
            var reader = BoxReader(items.bytes, hvcC.payload, format: format)
            // The fixed fields of HEVCDecoderConfigurationRecord (ISO/IEC 14496-15 §8.3.3.1), up to numOfArrays.
            try reader.skip(22, "hvcC")
            for _ in 0..<(try reader.uint(1, "hvcC")) {
                try reader.skip(1, "hvcC")  // array_completeness, NAL_unit_type: each unit's own header counts
                for _ in 0..<(try reader.uint(2, "hvcC")) {
                    let length = try reader.uint(2, "hvcC")
                    let start = reader.position
                    try reader.skip(length, "hvcC")
                    let nal = UnsafeRawBufferPointer(rebasing: items.bytes[start..<start + length])
                    if let size = try sequenceParameterSet(nal.prefix(HEVCSequenceParameters.prefixLength + 2)) {
                        sizes.append(size)
                    }
                }
            }
        }
        let data = try items.data(of: id)
        var offset = 0
        while data.count - offset >= 4 {
            let length = HEIFCodedSize.number(data.read(offset, 4)[...])
            // Decoders refuse a unit running past the end, and stop there.
            guard length <= data.count - offset - 4 else { break }
            if let size = try sequenceParameterSet(data.read(offset + 4, min(length, HEVCSequenceParameters.prefixLength + 2))) {
                sizes.append(size)
            }
            offset += 4 + length
        }
        guard !sizes.isEmpty else { throw .corrupt(format, "HEVC image \(id) has no sequence parameter set") }
        return sizes
    }

    /// The size of a base-layer sequence parameter set, nil for any other NAL unit.
    private func sequenceParameterSet(_ nal: some Collection<UInt8>) throws(ImagingError) -> CodedSize? {
        guard nal.count >= 2, HEVCSequenceParameters.isBaseLayerSPS(nal.first!, nal.dropFirst().first!) else { return nil }
        guard let size = HEVCSequenceParameters.codedSize(nal: nal) else {
            throw .corrupt(format, "an HEVC sequence parameter set cannot be read")
        }
        return size
    }

    /// Every sequence header among the `av1C` configuration OBUs and the item's data, walked as one stream, as
    /// libheif joins them for its AV1 decoder.
    func av1Sizes(_ id: UInt32) throws(ImagingError) -> [CodedSize] {
        let data = try items.data(of: id)
        let configurations = items.properties(of: id, .av1C)
        var streams: [ByteRanges] = []
        for av1C in configurations {
            // Four bytes of AV1CodecConfigurationRecord before configOBUs.
            guard av1C.payload.count >= 4 else { throw .corrupt(format, "av1C is truncated") }
            streams.append(ByteRanges(items.bytes, [av1C.payload.dropFirst(4)] + data.ranges))
        }
        if configurations.isEmpty { streams.append(data) }
        var sizes: [CodedSize] = []
        for stream in streams {
            guard let found = AV1SequenceHeader.codedSizes(in: stream) else {
                throw .corrupt(format, "an AV1 sequence header cannot be read")
            }
            sizes += found
        }
        guard !sizes.isEmpty else { throw .corrupt(format, "AV1 image \(id) has no sequence header") }
        return sizes
    }
}
