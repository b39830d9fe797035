/// The metadata segments of a JPEG, found by walking its markers up to the start of scan.
struct JPEGSegments {
    /// The TIFF block of the first APP1 segment that starts with `Exif\0\0`.
    var exif: Range<Int>?
    /// The ICC profile, reassembled from its APP2 `ICC_PROFILE\0` chunks (ICC.1 Annex B.4), or nil when a chunk
    /// is missing, numbered twice or inconsistent.
    var icc: [UInt8]?

    private static let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]
    private static let iccHeader: [UInt8] = Array("ICC_PROFILE".utf8) + [0]

    init(_ bytes: UnsafeRawBufferPointer) {
        var iccChunks: [(sequence: Int, count: Int, range: Range<Int>)] = []
        var i = 2
        walk: while i + 1 < bytes.count {
            guard bytes[i] == 0xFF else { break }
            let marker = bytes[i + 1]
            // A run of 0xFF is fill before the marker byte.
            if marker == 0xFF {
                i += 1
                continue
            }
            if marker == 0xDA || marker == 0xD9 { break }
            // TEM and RSTn stand alone, without a length.
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                i += 2
                continue
            }
            guard i + 3 < bytes.count else { break }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            let end = i + 2 + length
            guard length >= 2, end <= bytes.count else { break }
            let payload = i + 4
            switch marker {
            case 0xE1 where exif == nil && Self.starts(bytes, payload..<end, with: Self.exifHeader):
                exif = payload + Self.exifHeader.count..<end
            case 0xE2 where Self.starts(bytes, payload..<end, with: Self.iccHeader) && end - payload >= 14:
                let at = payload + Self.iccHeader.count
                iccChunks.append((Int(bytes[at]), Int(bytes[at + 1]), at + 2..<end))
                // 255 chunks is the format's ceiling; more is not a profile.
                if iccChunks.count > 255 { break walk }
            default:
                break
            }
            i = end
        }
        icc = Self.assemble(iccChunks, bytes)
    }

    private static func starts(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, with prefix: [UInt8]) -> Bool {
        range.count >= prefix.count && bytes[range.lowerBound..<range.lowerBound + prefix.count].elementsEqual(prefix)
    }

    private static func assemble(
        _ chunks: [(sequence: Int, count: Int, range: Range<Int>)],
        _ bytes: UnsafeRawBufferPointer
    ) -> [UInt8]? {
        guard let count = chunks.first?.count, count >= 1, chunks.count == count,
            chunks.allSatisfy({ $0.count == count })
        else { return nil }
        let ordered = chunks.sorted { $0.sequence < $1.sequence }
        guard ordered.map(\.sequence) == Array(1...count) else { return nil }
        let total = ordered.reduce(0) { $0 + $1.range.count }
        guard total > 0, total <= ColourProfile.maxICCBytes else { return nil }
        var profile: [UInt8] = []
        profile.reserveCapacity(total)
        for chunk in ordered { profile += bytes[chunk.range] }
        return profile
    }
}
