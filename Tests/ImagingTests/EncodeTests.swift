import ImageFixtures
import Imaging
import Testing

struct EncodeTests {
    @Test("encoded JPEGs are baseline with a JFIF APP0 and no other metadata segments")
    func baselineWithoutMetadata() throws {
        let jpeg = try Imaging.encodeJPEG(TestImages.gradient(width: 64, height: 48), quality: 85)

        let markers = JPEGMarkers.header(jpeg)

        #expect(Array(jpeg.prefix(2)) == [0xFF, 0xD8])
        #expect(Array(jpeg.suffix(2)) == [0xFF, 0xD9])
        #expect(markers.first == 0xE0)
        #expect(markers.contains(0xC0))  // SOF0: baseline
        #expect(!markers.contains(0xC2))  // SOF2: progressive
        #expect(markers.allSatisfy { $0 == 0xE0 || !(0xE1...0xEF).contains($0) })  // no APP1–APP15 (EXIF, ICC, …)
        #expect(!markers.contains(0xFE))  // no comment
        #expect(markers.last == 0xDA)
    }

    @Test("the subsampling flag selects 4:2:0 or 4:4:4 luma sampling factors")
    func subsampling() throws {
        let image = TestImages.gradient(width: 32, height: 32)

        let sampled = try Imaging.encodeJPEG(image, quality: 85, subsampling420: true)
        let full = try Imaging.encodeJPEG(image, quality: 85, subsampling420: false)

        // SOF0: FF C0, length (2), precision, height (2), width (2), count, then id + sampling per component.
        let sof420 = try #require(markerOffset(0xC0, in: sampled))
        let sof444 = try #require(markerOffset(0xC0, in: full))
        #expect(sampled[sof420 + 11] == 0x22)
        #expect(full[sof444 + 11] == 0x11)
    }

    @Test("higher quality gives a larger file for a detailed image")
    func qualityAffectsSize() throws {
        let image = TestImages.checker(width: 128, height: 128, cell: 3)

        let low = try Imaging.encodeJPEG(image, quality: 20)
        let high = try Imaging.encodeJPEG(image, quality: 95)

        #expect(low.count < high.count)
    }

    @Test("out-of-range qualities are clamped to 1 and 100")
    func qualityClamped() throws {
        let image = TestImages.gradient(width: 40, height: 30)

        #expect(try Imaging.encodeJPEG(image, quality: 0) == Imaging.encodeJPEG(image, quality: 1))
        #expect(try Imaging.encodeJPEG(image, quality: 150) == Imaging.encodeJPEG(image, quality: 100))
    }

    @Test("an empty image or one whose pixel count does not match its size is refused")
    func invalidImages() {
        let empty = #expect(throws: ImagingError.self) {
            try Imaging.encodeJPEG(RGBImage(width: 0, height: 0, pixels: []), quality: 80)
        }
        let mismatched = #expect(throws: ImagingError.self) {
            try Imaging.encodeJPEG(RGBImage(width: 2, height: 2, pixels: [1, 2, 3]), quality: 80)
        }
        #expect(empty?.kind == .invalidArgument)
        #expect(mismatched?.kind == .invalidArgument)
    }
}
