import CJPEG
import CTurboJPEG
import ImageFixtures
import Testing

@testable import Imaging

/// JPEG rows streamed from libjpeg's scanline decoder against libturbojpeg's whole-image decode of the same file:
/// the same library underneath, so the pixels must be identical at every DCT scale.
struct JPEGRowsTests {
    @Test(
        "rows decoded one at a time equal libturbojpeg's whole decode",
        arguments: [(nil, true), ((321, 241), true), ((161, 121), false), ((81, 61), true)] as [((Int, Int)?, Bool)]
    )
    func sameAsWholeDecode(atLeast: (Int, Int)?, subsampled: Bool) throws {
        // setup: an odd size, so the scaled sizes round up.
        let source = TestImages.noisy(width: 641, height: 481, amplitude: 50)
        let jpeg = try Imaging.encodeJPEG(source, quality: 90, subsampling420: subsampled)
        let handle = try #require(tjInitDecompress())
        defer { tjDestroy(handle) }

        // act
        let rows = try Imaging.decode(jpeg, atLeast: atLeast.map { (width: $0.0, height: $0.1) })
        let whole = try jpeg.withUnsafeBytes { bytes throws -> [UInt8] in
            let buffer = try JPEGDecoder.decompress(bytes, handle: handle, width: rows.width, height: rows.height, format: TJPF_RGB)
            return Array(UnsafeBufferPointer(start: buffer.base, count: buffer.count))
        }

        // assert
        let expected = JPEGDecoder.scale(width: 641, height: 481, atLeast: atLeast.map { (width: $0.0, height: $0.1) })
        #expect(rows.width == expected.width && rows.height == expected.height)
        #expect(rows.pixels == whole)
        if let atLeast { #expect(rows.width >= atLeast.0 && rows.height >= atLeast.1 && expected.denom > expected.num) }
    }

    @Test("CMYK and YCCK JPEGs are refused by the row decoder, which leaves them to libturbojpeg", arguments: ["CMYK", "YCCK"])
    func cmykRefused(variant: String) throws {
        let cmyk = variant == "CMYK" ? JPEGFixtures.cmykJPEG : JPEGFixtures.ycckJPEG
        let failure = cmyk.withUnsafeBytes { bytes -> String? in
            guard let reader = grain_jpeg_open(bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count, 500) else { return nil }
            defer { grain_jpeg_close(reader) }
            var width: UInt32 = 0
            var height: UInt32 = 0
            return grain_jpeg_start(reader, 1, 1, &width, &height) == 0 ? nil : String(cString: grain_jpeg_message(reader))
        }
        #expect(failure == "CMYK is not decoded by rows")
    }
}
