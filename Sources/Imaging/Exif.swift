/// Reads EXIF metadata from JPEG (APP1 `Exif\0\0`) and PNG (`eXIf`) files without any C library.
///
/// Uploads are untrusted, so the parser is bounded everywhere: every offset and count is checked against the data,
/// IFDs are visited at most once, and anything malformed is dropped field by field. It never throws and never traps,
/// because broken metadata must not block an upload.
public enum Exif {
    /// Extracts orientation, GPS, capture date and camera fields; unreadable parts come back as nil.
    /// - Parameter imageBytes: a whole JPEG or PNG file (other data yields empty metadata).
    public static func read(_ imageBytes: [UInt8]) -> ExifMetadata {
        let range: Range<Int>?
        switch Imaging.sniff(imageBytes) {
        case .jpeg: range = jpegExifRange(imageBytes)
        case .png: range = pngExifRange(imageBytes)
        case nil: range = nil
        }
        guard let range, let tiff = TIFFReader(imageBytes, range: range) else { return ExifMetadata() }
        return ExifFields(tiff).metadata()
    }

    private static let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"

    /// The TIFF block of the first APP1 segment that starts with `Exif\0\0`, found by walking the marker
    /// segments up to the start of scan (EXIF may not come first: JFIF APP0 or others can precede it).
    static func jpegExifRange(_ bytes: [UInt8]) -> Range<Int>? {
        var i = 2
        while i + 1 < bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            // A run of 0xFF is fill before the marker byte.
            if marker == 0xFF {
                i += 1
                continue
            }
            if marker == 0xDA || marker == 0xD9 { return nil }
            // TEM and RSTn stand alone, without a length.
            if marker == 0x01 || (0xD0...0xD7).contains(marker) {
                i += 2
                continue
            }
            guard i + 3 < bytes.count else { return nil }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            let end = i + 2 + length
            guard length >= 2, end <= bytes.count else { return nil }
            let payload = i + 4
            if marker == 0xE1, end - payload > exifHeader.count,
                bytes[payload..<payload + exifHeader.count].elementsEqual(exifHeader)
            {
                return payload + exifHeader.count..<end
            }
            i = end
        }
        return nil
    }

    /// The contents of the first `eXIf` chunk, walking chunk headers without checking CRCs.
    static func pngExifRange(_ bytes: [UInt8]) -> Range<Int>? {
        var i = 8
        while i + 8 <= bytes.count {
            let length = bytes[i..<i + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = bytes[i + 4..<i + 8]
            let start = i + 8
            guard length <= Int(Int32.max), start + length <= bytes.count else { return nil }
            if type.elementsEqual([0x65, 0x58, 0x49, 0x66]) {  // "eXIf"
                // Some writers wrongly keep the JPEG `Exif\0\0` prefix; tolerate it.
                let hasPrefix =
                    length > exifHeader.count && bytes[start..<start + exifHeader.count].elementsEqual(exifHeader)
                return (hasPrefix ? start + exifHeader.count : start)..<start + length
            }
            if type.elementsEqual([0x49, 0x45, 0x4E, 0x44]) { return nil }  // "IEND"
            i = start + length + 4
        }
        return nil
    }
}
