import Testing

@testable import Imaging

/// Progressive JPEGs whose scans would cost far more decoding than their pixels suggest.
struct JPEGScanLimitTests {
    @Test("a progressive JPEG with more than 100 scans is refused with a message that says so; one with 100 decodes")
    func progressiveJPEGWithTooManyScansIsRefused() throws {
        let atTheLimit = ManyScanJPEG.make(scans: 100)
        let image = try Imaging.decode(atTheLimit)
        #expect(image.width == 8 && image.height == 8)
        #expect(image.pixels.allSatisfy { $0 == 128 }, "every coefficient is zero: mid-grey")

        for scans in [101, 600] {
            let error = #expect(throws: ImagingError.self) { try Imaging.decode(ManyScanJPEG.make(scans: scans)) }
            #expect(error?.kind == .unsupportedFormat)
            #expect(error?.description.contains("more than 100 progressive scans") == true, "\(String(describing: error))")
        }
    }

    @Test("scans are counted from the markers: a thumbnail's inside EXIF is not one of them, stuffed bytes end none")
    func scansAreCountedFromTheMarkers() {
        let jpeg = ManyScanJPEG.make(scans: 7)
        var withThumbnail = Array(jpeg[0..<2])
        // An APP1 segment carrying another JPEG's SOS markers, and entropy data holding a stuffed 0xFF 0x00.
        let payload: [UInt8] = Array("Exif\0\0".utf8) + [0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xD9]
        withThumbnail += [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        withThumbnail += jpeg[2...]
        let stuffed = Array(jpeg.dropLast(2)) + [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x01, 0x01, 0x00, 0x12, 0xFF, 0x00, 0xFF, 0xD9]
        for (bytes, expected) in [(jpeg, 7), (withThumbnail, 7), (stuffed, 8)] {
            let count = bytes.withUnsafeBytes { JPEGDecoder.scanCount($0, stoppingAfter: 100) }
            #expect(count == expected)
        }
        let capped = ManyScanJPEG.make(scans: 300).withUnsafeBytes { JPEGDecoder.scanCount($0, stoppingAfter: 100) }
        #expect(capped == 101, "counting stops one past the limit")
    }
}

/// A valid 8 × 8 grayscale progressive JPEG of any number of scans (2 to 631), every coefficient zero: a DC scan,
/// then for each AC coefficient in turn a first scan at Al = 9 followed by its refinements down to Al = 0 (as a
/// scan script for `cjpeg -scans` could ask), until the count is reached. Both Huffman tables hold one 1-bit code,
/// symbol 0 (a DC difference of 0; an end of band), so each scan's data is that bit padded with ones: 0x7F.
enum ManyScanJPEG {
    static func make(scans: Int) -> [UInt8] {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += segment(0xDB, [0x00] + [UInt8](repeating: 1, count: 64))  // DQT: table 0, all ones
        bytes += segment(0xC2, [8, 0, 8, 0, 8, 1, 1, 0x11, 0])  // SOF2: 8 bits, 8 × 8, one component
        for tableClass: UInt8 in [0x00, 0x10] {  // DHT: DC table 0, AC table 0
            bytes += segment(0xC4, [tableClass, 1] + [UInt8](repeating: 0, count: 15) + [0x00])
        }
        bytes += scan(band: 0, ah: 0, al: 0)
        var written = 1
        bands: for coefficient in 1...63 {
            for ah in [0] + Array((1...9).reversed()) where written < scans {
                bytes += scan(band: UInt8(coefficient), ah: UInt8(ah), al: UInt8(ah == 0 ? 9 : ah - 1))
                written += 1
            }
            if written == scans { break bands }
        }
        return bytes + [0xFF, 0xD9]
    }

    static func scan(band: UInt8, ah: UInt8, al: UInt8) -> [UInt8] {
        segment(0xDA, [1, 1, 0x00, band, band, ah << 4 | al]) + [0x7F]
    }

    static func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] {
        [0xFF, marker, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
    }
}
