/// Assembles PNG files byte by byte (zlib with stored, uncompressed deflate blocks), so PNG decoding is tested
/// against files built from the specification rather than by the library under test.
public enum PNGBuilder {
    public enum ColorType: UInt8, Sendable {
        case gray = 0
        case rgb = 2
        case palette = 3
        case grayAlpha = 4
        case rgba = 6
    }

    /// - Parameters:
    ///   - rows: packed sample bytes per row, without the filter byte (filter 0 is added).
    ///   - palette: RGB triples for `.palette`.
    ///   - transparency: tRNS chunk contents (alpha per palette entry).
    public static func png(
        width: Int,
        height: Int,
        bitDepth: UInt8 = 8,
        colorType: ColorType,
        rows: [[UInt8]],
        palette: [UInt8]? = nil,
        transparency: [UInt8]? = nil
    ) -> [UInt8] {
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file += chunk("IHDR", bigEndian(width) + bigEndian(height) + [bitDepth, colorType.rawValue, 0, 0, 0])
        if let palette { file += chunk("PLTE", palette) }
        if let transparency { file += chunk("tRNS", transparency) }
        file += chunk("IDAT", zlibStored(rows.flatMap { [0] + $0 }))
        file += chunk("IEND", [])
        return file
    }

    /// Just the signature and an IHDR claiming the given size: a decompression bomb's header with no data.
    public static func headerOnly(width: Int, height: Int) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0])
    }

    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return bigEndian(data.count) + typeAndData + bigEndian(Int(crc32(typeAndData)))
    }

    public static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65_535, data.count - offset)
            let isFinal: UInt8 = offset + length == data.count ? 1 : 0
            out += [
                isFinal, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF),
            ]
            out += data[offset..<offset + length]
            offset += length
        } while offset < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + bigEndian(Int(b << 16 | a))
    }

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 {
                crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
            }
        }
        return ~crc
    }

    public static func bigEndian(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
