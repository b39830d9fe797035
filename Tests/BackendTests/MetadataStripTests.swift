import ATProto
import Foundation
import Imaging
import Lexicon
import Testing

@testable import Backend

/// JPEG and PNG files carrying the metadata a phone writes, built byte by byte.
enum MetadataSamples {
    /// A little-endian TIFF block: Orientation = `orientation`, and a GPS IFD at 48.8584 N, 2.2945 E.
    static func exifTIFF(orientation: UInt16) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16) }
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: [UInt8]) -> [UInt8] {
            u16(tag) + u16(type) + u32(count) + value + Array(repeating: 0, count: 4 - value.count)
        }
        func rationals(_ values: [(Int, Int)]) -> [UInt8] { values.flatMap { u32($0.0) + u32($0.1) } }
        var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + u32(8)
        tiff += u16(2) + entry(0x0112, 3, 1, u16(Int(orientation))) + entry(0x8825, 4, 1, u32(38)) + u32(0)
        tiff += u16(4)
        tiff += entry(0x0001, 2, 2, Array("N\u{0}".utf8)) + entry(0x0002, 5, 3, u32(92))
        tiff += entry(0x0003, 2, 2, Array("E\u{0}".utf8)) + entry(0x0004, 5, 3, u32(116)) + u32(0)
        tiff += rationals([(48, 1), (51, 1), (3024, 100)]) + rationals([(2, 1), (17, 1), (4020, 100)])
        return tiff
    }

    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// `jpeg` with EXIF (orientation and GPS), XMP, an IPTC block, a comment, and a second JPEG appended after it.
    static func taggedJPEG(_ jpeg: [UInt8], orientation: UInt16 = 6) -> [UInt8] {
        let exif = segment(0xE1, Array("Exif".utf8) + [0, 0] + exifTIFF(orientation: orientation))
        let xmp = segment(
            0xE1, Array("http://ns.adobe.com/xap/1.0/\u{0}<x:xmpmeta><exif:GPSLatitude>48,51.5N</exif:GPSLatitude></x:xmpmeta>".utf8))
        let iptc = segment(0xED, Array("Photoshop 3.0\u{0}8BIM caption: at home".utf8))
        let comment = segment(0xFE, Array("secret comment".utf8))
        // A motion photo or MPF image after the end of the first: with its own EXIF.
        let appended = [0xFF, 0xD8] + exif + Array(jpeg.dropFirst(2))
        return [0xFF, 0xD8] + exif + xmp + iptc + comment + Array(jpeg.dropFirst(2)) + appended
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (crc & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        return ~crc
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        let n = UInt32(data.count)
        let crc = crc32(body)
        return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + body
            + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    }

    /// A 2×1 RGB PNG (one stored zlib block) with eXIf (GPS), tEXt, iTXt (XMP) and tIME chunks, and junk after IEND.
    static func taggedPNG() -> [UInt8] {
        let raw: [UInt8] = [0, 200, 30, 40, 10, 220, 90]  // filter 0, two pixels
        var adlerA: UInt32 = 1
        var adlerB: UInt32 = 0
        for byte in raw {
            adlerA = (adlerA + UInt32(byte)) % 65521
            adlerB = (adlerB + adlerA) % 65521
        }
        let adler = adlerB << 16 | adlerA
        let zlib: [UInt8] =
            [0x78, 0x01, 0x01, UInt8(raw.count), 0x00, ~UInt8(raw.count), 0xFF] + raw
            + [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        let header: [UInt8] = [0, 0, 0, 2, 0, 0, 0, 1, 8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
            + chunk("eXIf", exifTIFF(orientation: 1)) + chunk("tEXt", Array("Comment\u{0}secret comment".utf8))
            + chunk("iTXt", Array("XML:com.adobe.xmp\u{0}\u{0}\u{0}\u{0}\u{0}<x:xmpmeta/>".utf8))
            + chunk("tIME", [0x07, 0xEA, 8, 19, 12, 0, 0]) + chunk("IDAT", zlib) + chunk("IEND", []) + Array("junk".utf8)
    }
}

struct MetadataStripTests {
    func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let n = Array(needle.utf8)
        guard haystack.count >= n.count else { return false }
        return (0...(haystack.count - n.count)).contains { haystack[$0..<($0 + n.count)].elementsEqual(n) }
    }

    @Test("uploadBlob stores a JPEG without its GPS, XMP, IPTC, comment or appended image, pixels and orientation unchanged")
    func jpegStripped() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let plain = try BackendFixture.jpeg(width: 64, height: 48, seed: 2)
        let tagged = MetadataSamples.taggedJPEG(plain)
        let before = Exif.read(tagged)
        #expect(before.gps != nil, "the sample really carries GPS")
        #expect(before.orientation == 6)

        let (status, json) = await f.post("dev.hatk.uploadBlob", as: maya, contentType: "image/jpeg", body: tagged)
        #expect(status == 200)
        let cid = try #require(json?["blob"]?["ref"]?["$link"]?.stringValue)
        let stored = try [UInt8](Data(contentsOf: URL(fileURLWithPath: f.backend.blobs.path(cid: cid, preset: .fullsize))))
        #expect(json?["blob"]?["size"]?.intValue == Int64(stored.count))
        #expect(cid == CID(hashing: stored, codec: .raw).description, "the CID names the stored bytes")
        let after = Exif.read(stored)
        #expect(after.gps == nil)
        #expect(after.orientation == 6, "the photo still displays upright")
        for secret in ["xmpmeta", "secret comment", "8BIM", "GPS"] { #expect(!contains(stored, secret), "\(secret) is gone") }
        #expect(Array(stored.suffix(2)) == [0xFF, 0xD9], "nothing after the end of the image")
        #expect(try Imaging.decode(stored) == (try Imaging.decode(plain)), "the pixels are untouched")
    }

    @Test("a JPEG without orientation gets no EXIF at all; one with a broken segment is refused")
    func jpegEdgeCases() throws {
        let plain = try BackendFixture.jpeg(width: 16, height: 16)
        let stripped = try #require(ImageMetadata.stripped(MetadataSamples.taggedJPEG(plain, orientation: 1), mimeType: "image/jpeg"))
        #expect(!contains(stripped, "Exif"))
        #expect(stripped == ImageMetadata.stripped(plain, mimeType: "image/jpeg"), "the same image as its untagged original")
        let broken: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0x40, 0x00, 1, 2, 3]
        #expect(ImageMetadata.stripped(broken, mimeType: "image/jpeg") == nil)
    }

    @Test("uploadBlob stores a PNG without eXIf, text, XMP or time chunks and without what follows IEND")
    func pngStripped() async throws {
        let f = try BackendFixture()
        let maya = try f.account("maya")
        let tagged = MetadataSamples.taggedPNG()
        #expect(Exif.read(tagged).gps != nil)
        let (status, json) = await f.post("dev.hatk.uploadBlob", as: maya, contentType: "image/png", body: tagged)
        #expect(status == 200, "\(String(describing: json))")
        let cid = try #require(json?["blob"]?["ref"]?["$link"]?.stringValue)
        let stored = try [UInt8](Data(contentsOf: URL(fileURLWithPath: f.backend.blobs.path(cid: cid, preset: .fullsize))))
        #expect(Exif.read(stored).gps == nil)
        for chunk in ["eXIf", "tEXt", "iTXt", "tIME", "secret", "junk"] { #expect(!contains(stored, chunk), "\(chunk) is gone") }
        #expect(try Imaging.decode(stored) == (try Imaging.decode(tagged)))
    }
}
