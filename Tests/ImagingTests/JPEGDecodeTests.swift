import ImageFixtures
import Imaging
import Testing

struct JPEGDecodeTests {
    /// The CMYK fixtures' patches: centre pixel and the RGB expected from `R = 255 (1 - C/255)(1 - K/255)`.
    static let inkPatches: [(x: Int, y: Int, rgb: (Int, Int, Int))] = [
        (8, 8, (255, 255, 255)),  // no ink
        (24, 8, (0, 255, 255)),  // cyan
        (40, 8, (255, 0, 0)),  // magenta + yellow
        (8, 24, (127, 127, 127)),  // 50% black
        (24, 24, (0, 0, 255)),  // cyan + magenta
        (40, 24, (168, 112, 223)),  // (64, 128, 0, 32)
    ]

    @Test("a decoded JPEG matches its source pixels closely")
    func roundTripAccuracy() throws {
        // setup
        let source = TestImages.gradient(width: 200, height: 150)
        let jpeg = try Imaging.encodeJPEG(source, quality: 95, subsampling420: false)

        // MUT
        let decoded = try Imaging.decode(jpeg)

        // validate
        #expect(decoded.width == 200 && decoded.height == 150)
        #expect(TestImages.meanAbsoluteError(decoded, source) < 1.5)
    }

    @Test("4:2:0 encoding still decodes close to the source")
    func roundTripAccuracy420() throws {
        let source = TestImages.gradient(width: 160, height: 120)

        let decoded = try Imaging.decode(try Imaging.encodeJPEG(source, quality: 90))

        #expect(TestImages.meanAbsoluteError(decoded, source) < 3)
    }

    @Test("DCT scaling picks the smallest M/8 size that is at least the requested size on both axes")
    func dctScaledSizes() throws {
        let jpeg = try Imaging.encodeJPEG(TestImages.gradient(width: 640, height: 480), quality: 85)
        let cases: [((Int, Int)?, (Int, Int))] = [
            (nil, (640, 480)),
            ((640, 480), (640, 480)),
            ((641, 10), (640, 480)),  // nothing larger than full size
            ((560, 1), (560, 420)),  // 7/8
            ((320, 240), (320, 240)),  // 1/2
            ((321, 240), (400, 300)),  // 5/8
            ((81, 1), (160, 120)),  // 1/4
            ((10, 60), (80, 60)),  // 1/8, bound by height
            ((1, 1), (80, 60)),
        ]
        for (atLeast, expected) in cases {
            let image = try Imaging.decode(jpeg, atLeast: atLeast)
            #expect(image.width == expected.0 && image.height == expected.1, "atLeast \(String(describing: atLeast))")
        }
    }

    @Test("a DCT-scaled decode looks like the source reduced")
    func dctScaledContent() throws {
        let source = TestImages.gradient(width: 640, height: 480)
        let jpeg = try Imaging.encodeJPEG(source, quality: 95, subsampling420: false)

        let half = try Imaging.decode(jpeg, atLeast: (320, 240))

        #expect(TestImages.meanAbsoluteError(half, source.resized(width: 320, height: 240)) < 1.5)
    }

    @Test("a progressive JPEG decodes to its gradient")
    func progressive() throws {
        let image = try Imaging.decode(JPEGFixtures.progressiveJPEG)

        #expect(image.width == 64 && image.height == 48)
        var expected = [UInt8]()
        for y in 0..<48 { for x in 0..<64 { expected += [UInt8(x * 4), UInt8(y * 5), 128] } }
        #expect(TestImages.meanAbsoluteError(image, RGBImage(width: 64, height: 48, pixels: expected)) < 3)
    }

    @Test("a grayscale JPEG decodes to equal RGB channels with the right levels")
    func grayscale() throws {
        let image = try Imaging.decode(JPEGFixtures.grayJPEG)

        #expect(image.width == 64 && image.height == 48)
        for (x, y) in [(0, 0), (63, 0), (0, 47), (32, 24), (63, 47)] {
            let pixel = image.pixel(x: x, y: y)
            // Pillow's luma: L = (299 R + 587 G + 114 B) / 1000 of the (4x, 5y, 128) source.
            let luma = (299 * 4 * x + 587 * 5 * y + 114 * 128) / 1000
            #expect(pixel.red == pixel.green && pixel.green == pixel.blue)
            #expect(TestImages.distance(pixel, (luma, luma, luma)) <= 4, "at (\(x), \(y))")
        }
    }

    @Test("an Adobe CMYK JPEG comes out as the right RGB colours", arguments: ["CMYK", "YCCK"])
    func cmyk(variant: String) throws {
        let bytes = variant == "CMYK" ? JPEGFixtures.cmykJPEG : JPEGFixtures.ycckJPEG

        let image = try Imaging.decode(bytes)

        #expect(image.width == 48 && image.height == 32)
        for patch in Self.inkPatches {
            let pixel = image.pixel(x: patch.x, y: patch.y)
            #expect(
                TestImages.distance(pixel, patch.rgb) <= 4,
                "\(variant) patch at (\(patch.x), \(patch.y)): \(pixel)"
            )
        }
    }

    @Test("CMYK JPEGs scale with DCT scaling too")
    func cmykScaled() throws {
        let image = try Imaging.decode(JPEGFixtures.cmykJPEG, atLeast: (24, 16))

        #expect(image.width == 24 && image.height == 16)
        #expect(TestImages.distance(image.pixel(x: 12, y: 4), (0, 255, 255)) <= 6)
    }
}
