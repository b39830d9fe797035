import FuzzSupport
import Imaging

// Input: a whole JPEG or PNG file, or else a bare TIFF (EXIF) block, which is wrapped both in a JPEG APP1 segment
// and in a PNG eXIf chunk.
//
// Properties:
// - `Exif.read` never traps;
// - every field it returns is in range: orientation 1–8, GPS finite and on the globe, text non-empty, at most
//   256 bytes, without control characters or surrounding spaces;
// - a bare TIFF block reads the same from the JPEG and the PNG container.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExif(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = Fuzz.bytes(data, size)
    if Imaging.sniff(input) != nil {
        check(Exif.read(input))
        return 0
    }
    let fromPNG = Exif.read(Container.png(tiff: input))
    check(fromPNG)
    // The JPEG segment length field caps the block; PNG readers also strip a wrongly kept `Exif\0\0` prefix,
    // which JPEG readers must not.
    guard input.count <= 65_000 else { return 0 }
    let fromJPEG = Exif.read(Container.jpeg(tiff: input))
    check(fromJPEG)
    if !input.starts(with: Container.exifHeader) {
        Fuzz.require(fromJPEG == fromPNG, "JPEG read \(fromJPEG), PNG read \(fromPNG)")
    }
    return 0
}

func check(_ metadata: ExifMetadata) {
    if let orientation = metadata.orientation {
        Fuzz.require((1...8).contains(orientation), "orientation \(orientation)")
    }
    if let gps = metadata.gps {
        Fuzz.require(
            gps.latitude.isFinite && gps.longitude.isFinite && abs(gps.latitude) <= 90 && abs(gps.longitude) <= 180,
            "GPS \(gps)"
        )
    }
    for text in [metadata.make, metadata.model, metadata.dateTimeOriginal].compactMap({ $0 }) {
        let bytes = Array(text.utf8)
        Fuzz.require(
            !bytes.isEmpty && bytes.count <= 256 && !bytes.contains { $0 < 0x20 || $0 == 0x7F }
                && bytes.first != 0x20 && bytes.last != 0x20,
            "text field \(text.debugDescription)"
        )
    }
}

/// Minimal JPEG and PNG files around an EXIF block: the reader only walks segment and chunk headers.
enum Container {
    static let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]

    static func jpeg(tiff: [UInt8]) -> [UInt8] {
        let length = 2 + exifHeader.count + tiff.count
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + exifHeader + tiff + [0xFF, 0xD9]
    }

    static func png(tiff: [UInt8]) -> [UInt8] {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let length = UInt32(tiff.count)
        let lengthBytes = (0..<4).map { UInt8(truncatingIfNeeded: length >> (24 - 8 * $0)) }
        // The reader does not check CRCs, so zeros do.
        return signature + lengthBytes + Array("eXIf".utf8) + tiff + [0, 0, 0, 0] + [0, 0, 0, 0] + Array("IEND".utf8)
            + [0, 0, 0, 0]
    }
}
