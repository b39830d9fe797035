/// Recognises the supported formats by their magic bytes.
enum ImageSniffer {
    /// How many leading bytes `format(of:)` may look at: a HEIF `ftyp` box lists its brands within them.
    static let prefixLength = 256

    private static let heicBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs"]
    private static let avifBrands: Set<String> = ["avif", "avis"]
    /// Generic HEIF brands: the coded format is told by the compatible brands that follow.
    private static let genericHEIFBrands: Set<String> = ["mif1", "msf1", "mif2"]

    static func format(of bytes: UnsafeRawBufferPointer) -> ImageFormat? {
        if bytes.count >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF {
            return .jpeg
        }
        if bytes.count >= 8 && bytes[0..<8].elementsEqual(PNGDecoder.signature) {
            return .png
        }
        // RIFF <size> WEBP (RFC 9649 §2.5).
        if bytes.count >= 12 && bytes[0..<4].elementsEqual("RIFF".utf8) && bytes[8..<12].elementsEqual("WEBP".utf8) {
            return .webp
        }
        return heifFormat(bytes)
    }

    /// ISO/IEC 14496-12 `ftyp`: size, "ftyp", major brand, minor version, compatible brands.
    private static func heifFormat(_ bytes: UnsafeRawBufferPointer) -> ImageFormat? {
        guard bytes.count >= 16, bytes[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let size = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        guard size >= 16, size % 4 == 0 else { return nil }
        let end = min(size, bytes.count)
        var brands = [brand(bytes, at: 8)]
        var offset = 16
        while offset + 4 <= end {
            brands.append(brand(bytes, at: offset))
            offset += 4
        }
        if heicBrands.contains(brands[0]) { return .heic }
        if avifBrands.contains(brands[0]) { return .avif }
        guard genericHEIFBrands.contains(brands[0]) || brands.contains(where: genericHEIFBrands.contains) else {
            return nil
        }
        if brands.contains(where: avifBrands.contains) { return .avif }
        if brands.contains(where: heicBrands.contains) { return .heic }
        // A generic HEIF file without a coding brand: libheif will tell what is inside, or refuse it.
        return .heic
    }

    private static func brand(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> String {
        String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }
}
