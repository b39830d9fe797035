import ImageFixtures
import Imaging
import Testing

struct SniffAndInfoTests {
    @Test("sniff recognises JPEG and PNG magic bytes and nothing else")
    func sniffMagicBytes() throws {
        // setup
        let jpeg = try Imaging.encodeJPEG(TestImages.gradient(width: 8, height: 8), quality: 80)
        let png = PNGBuilder.png(width: 1, height: 1, colorType: .gray, rows: [[7]])

        // validate
        #expect(Imaging.sniff(jpeg) == .jpeg)
        #expect(Imaging.sniff(png) == .png)
        #expect(Imaging.sniff([]) == nil)
        #expect(Imaging.sniff([0xFF, 0xD8]) == nil)
        #expect(Imaging.sniff(Array("GIF89a....".utf8)) == nil)
        #expect(Imaging.sniff(Array(png.prefix(7))) == nil)
    }

    /// An `ftyp` box with a major brand and compatible brands, then a few bytes of something else.
    static func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
        let body = Array(major.utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) }
        return PNGBuilder.bigEndian(8 + body.count) + Array("ftyp".utf8) + body + [0, 0, 0, 8] + Array("meta".utf8)
    }

    @Test("sniff tells HEIC from AVIF by the ftyp brands, and recognises WebP's RIFF header")
    func sniffHEIFAndWebP() {
        #expect(Imaging.sniff(Self.ftyp("heic", ["mif1", "heic"])) == .heic)
        #expect(Imaging.sniff(Self.ftyp("heix", ["mif1"])) == .heic)
        #expect(Imaging.sniff(Self.ftyp("mif1", ["heic", "mif1"])) == .heic)
        #expect(Imaging.sniff(Self.ftyp("msf1", ["hevc", "msf1"])) == .heic)
        #expect(Imaging.sniff(Self.ftyp("avif", ["mif1", "miaf"])) == .avif)
        #expect(Imaging.sniff(Self.ftyp("avis", ["msf1"])) == .avif)
        #expect(Imaging.sniff(Self.ftyp("mif1", ["miaf", "avif"])) == .avif)
        #expect(Imaging.sniff(Self.ftyp("isom", ["mp41", "avc1"])) == nil)
        #expect(Imaging.sniff(Self.ftyp("qt  ", [])) == nil)
        #expect(Imaging.sniff(Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBPVP8 ".utf8)) == .webp)
        #expect(Imaging.sniff(Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVEfmt ".utf8)) == nil)
        #expect(Imaging.sniff(Array(Self.ftyp("heic", []).prefix(15))) == nil)
    }

    @Test("readInfo reports a JPEG's format and dimensions")
    func readInfoJPEG() throws {
        let jpeg = try Imaging.encodeJPEG(TestImages.gradient(width: 123, height: 45), quality: 80)

        let info = try Imaging.readInfo(jpeg)

        #expect(info == ImageInfo(format: .jpeg, width: 123, height: 45))
    }

    @Test("readInfo reports a PNG's format and dimensions from IHDR")
    func readInfoPNG() throws {
        let png = PNGBuilder.png(width: 3, height: 2, colorType: .gray, rows: [[1, 2, 3], [4, 5, 6]])

        let info = try Imaging.readInfo(png)

        #expect(info == ImageInfo(format: .png, width: 3, height: 2))
    }

    @Test("readInfo rejects unknown formats with a clear message")
    func readInfoUnknown() {
        let error = #expect(throws: ImagingError.self) { try Imaging.readInfo(Array("hello world".utf8)) }
        #expect(error?.kind == .unsupportedFormat)
        #expect(error?.description == "This file is not a photo format we can read (JPEG, PNG, HEIC, AVIF or WebP).")
    }

    @Test("a JPEG header claiming 30000×30000 with no scan data is refused by the pixel limit, not by the decoder")
    func jpegBombHeaderRefused() throws {
        // setup: a real header with the SOF dimensions patched and everything after the SOS header cut off
        let bomb = try forgedJPEGHeader(width: 30_000, height: 30_000)

        // MUT
        let info = try Imaging.readInfo(bomb)
        let error = #expect(throws: ImagingError.self) { try Imaging.decode(bomb) }

        // validate
        #expect(info == ImageInfo(format: .jpeg, width: 30_000, height: 30_000))
        #expect(error?.kind == .tooLarge)
        #expect(error?.description == "This JPEG is 30,000 × 30,000 pixels; the limit is 50 megapixels.")
    }

    @Test("a PNG consisting only of an IHDR claiming 30000×30000 is refused by the pixel limit")
    func pngBombHeaderRefused() {
        let bomb = PNGBuilder.headerOnly(width: 30_000, height: 30_000)

        let error = #expect(throws: ImagingError.self) { try Imaging.decode(bomb) }

        #expect(error?.kind == .tooLarge)
        #expect(error?.description == "This PNG is 30,000 × 30,000 pixels; the limit is 50 megapixels.")
    }

    @Test("a caller's smaller pixel limit applies and is stated in pixels when not whole megapixels")
    func customLimit() throws {
        let jpeg = try Imaging.encodeJPEG(TestImages.gradient(width: 100, height: 100), quality: 80)

        let error = #expect(throws: ImagingError.self) { try Imaging.decode(jpeg, maxPixels: 9_999) }
        let image = try Imaging.decode(jpeg, maxPixels: 10_000)

        #expect(error?.description == "This JPEG is 100 × 100 pixels; the limit is 9,999 pixels.")
        #expect(image.width == 100 && image.height == 100)
    }

    /// Encodes a small JPEG, rewrites the SOF0 size fields and truncates right after the SOS segment header.
    private func forgedJPEGHeader(width: Int, height: Int) throws -> [UInt8] {
        var bytes = try Imaging.encodeJPEG(TestImages.gradient(width: 16, height: 16), quality: 80)
        let sof = try #require(markerOffset(0xC0, in: bytes))
        bytes[sof + 5] = UInt8(height >> 8)
        bytes[sof + 6] = UInt8(height & 0xFF)
        bytes[sof + 7] = UInt8(width >> 8)
        bytes[sof + 8] = UInt8(width & 0xFF)
        let sos = try #require(markerOffset(0xDA, in: bytes))
        let length = Int(bytes[sos + 2]) << 8 | Int(bytes[sos + 3])
        return Array(bytes[..<(sos + 2 + length)])
    }
}

/// The offset of the first `FF <marker>` pair in a JPEG.
func markerOffset(_ marker: UInt8, in bytes: [UInt8]) -> Int? {
    var i = 2
    while i + 1 < bytes.count {
        if bytes[i] == 0xFF && bytes[i + 1] == marker { return i }
        i += 1
    }
    return nil
}
