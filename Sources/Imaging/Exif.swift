/// Reads EXIF metadata from JPEG (APP1 `Exif\0\0`) and PNG (`eXIf`) files without any C library (the pipeline
/// also feeds it the EXIF blocks of HEIF and WebP files, which their libraries extract).
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
        case .jpeg: range = imageBytes.withUnsafeBytes { JPEGSegments($0).exif }
        case .png: range = pngExifRange(imageBytes)
        default: range = nil
        }
        guard let range, let tiff = TIFFReader(imageBytes, range: range) else { return ExifMetadata() }
        return ExifFields(tiff).metadata()
    }

    /// The fields of a bare TIFF block (the body of an EXIF segment, chunk or HEIF item).
    static func metadata(tiff: [UInt8]) -> ExifMetadata {
        guard let reader = TIFFReader(tiff, range: 0..<tiff.count) else { return ExifMetadata() }
        return ExifFields(reader).metadata()
    }

    private static let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"

    /// A TIFF block that some writers prefix with the JPEG `Exif\0\0` header, without it.
    static func strippingExifHeader(_ block: [UInt8]) -> [UInt8] {
        block.count > exifHeader.count && block.starts(with: exifHeader) ? Array(block.dropFirst(exifHeader.count)) : block
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
