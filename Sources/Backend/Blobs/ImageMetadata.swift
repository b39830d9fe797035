import Imaging

/// Removes what an uploaded image says about where, when and with what it was taken, without touching its pixels:
/// JPEG segments are dropped or kept whole and the compressed data is copied byte for byte; PNG chunks likewise.
///
/// JPEG: drops APP1 (EXIF, XMP: GPS, camera, time), APP2 other than an ICC profile (MPF and FlashPix, which carry
/// more images with their own EXIF), APP3 to APP13 and APP15 (IPTC, Photoshop, vendor notes), APP14 other than
/// Adobe's colour-transform marker, comments, and anything after the end of the image (the appended video of a
/// "motion photo", a second JPEG). Keeps JFIF, the ICC profile and everything the decoder needs. An EXIF orientation
/// other than 1 is written back as a minimal APP1 holding only that tag, so the photo still displays upright.
///
/// PNG: drops `eXIf`, `tEXt`, `zTXt`, `iTXt` (where XMP lives) and `tIME`, and anything after `IEND`.
enum ImageMetadata {
    /// The image without its metadata, or nil when its structure is broken (a segment runs past the end).
    static func stripped(_ bytes: [UInt8], mimeType: String) -> [UInt8]? {
        switch mimeType {
        case "image/jpeg": return strippedJPEG(bytes)
        case "image/png": return strippedPNG(bytes)
        default: return bytes
        }
    }

    static func strippedJPEG(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        let orientation = Exif.read(bytes).orientation ?? 1
        var out: [UInt8] = [0xFF, 0xD8]
        out.reserveCapacity(bytes.count)
        var orientationWritten = !(2...8).contains(orientation)
        var i = 2
        while i + 1 < bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            if marker == 0xFF {  // fill byte before a marker
                i += 1
                continue
            }
            if marker == 0xD9 {  // end of image: whatever follows is not part of it
                out += [0xFF, 0xD9]
                return out
            }
            if marker == 0xD8 { return nil }
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                out += [0xFF, marker]
                i += 2
                continue
            }
            guard i + 3 < bytes.count else { return nil }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            let end = i + 2 + length
            guard length >= 2, end <= bytes.count else { return nil }
            let payload = bytes[(i + 4)..<end]
            if !orientationWritten && marker != 0xE0 {
                out += orientationSegment(orientation)
                orientationWritten = true
            }
            if keepsSegment(marker, payload) { out += bytes[i..<end] }
            i = end
            if marker == 0xDA {
                // Entropy-coded data runs to the next marker that is not a stuffed 0x00 or a restart marker.
                var j = i
                while j + 1 < bytes.count {
                    if bytes[j] == 0xFF, bytes[j + 1] != 0x00, !(0xD0...0xD7).contains(bytes[j + 1]), bytes[j + 1] != 0xFF { break }
                    j += 1
                }
                if j + 1 >= bytes.count { j = bytes.count }
                out += bytes[i..<j]
                i = j
            }
        }
        // Truncated after the scan data: keep what there is, as decoders do.
        return out
    }

    static func keepsSegment(_ marker: UInt8, _ payload: ArraySlice<UInt8>) -> Bool {
        switch marker {
        case 0xE0: return true
        case 0xE2: return payload.starts(with: Array("ICC_PROFILE\u{0}".utf8))
        case 0xEE: return payload.starts(with: Array("Adobe".utf8))
        case 0xE1, 0xE3...0xED, 0xEF, 0xFE: return false
        default: return true
        }
    }

    /// An APP1 segment with a big-endian TIFF IFD holding one entry: Orientation (0x0112, SHORT) = `value`.
    static func orientationSegment(_ value: Int) -> [UInt8] {
        let tiff: [UInt8] =
            [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08]  // "MM", 42, IFD at 8
            + [0x00, 0x01]  // one entry
            + [0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, UInt8(value), 0x00, 0x00]
            + [0x00, 0x00, 0x00, 0x00]  // no next IFD
        let payload: [UInt8] = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    static let droppedPNGChunks: Set<String> = ["eXIf", "tEXt", "zTXt", "iTXt", "tIME"]

    static func strippedPNG(_ bytes: [UInt8]) -> [UInt8]? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { return nil }
        var out = signature
        out.reserveCapacity(bytes.count)
        var i = 8
        while i + 8 <= bytes.count {
            let length = bytes[i..<i + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[i + 4..<i + 8], as: UTF8.self)
            let end = i + 12 + length
            guard length <= Int(Int32.max), end <= bytes.count else { return nil }
            if !droppedPNGChunks.contains(type) { out += bytes[i..<end] }
            if type == "IEND" { return out }
            i = end
        }
        return nil
    }
}
