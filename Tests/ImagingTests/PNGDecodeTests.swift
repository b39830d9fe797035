import ImageFixtures
import Imaging
import Testing

struct PNGDecodeTests {
    @Test("an 8-bit RGB PNG decodes exactly")
    func rgb8() throws {
        let png = PNGBuilder.png(
            width: 2,
            height: 2,
            colorType: .rgb,
            rows: [[255, 0, 0, 0, 255, 0], [0, 0, 255, 10, 20, 30]]
        )

        let image = try Imaging.decode(png)

        #expect(image == RGBImage(width: 2, height: 2, pixels: [255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30]))
    }

    @Test("RGBA alpha is flattened on white: opaque stays, transparent turns white, half blends in sRGB")
    func rgbaOnWhite() throws {
        let png = PNGBuilder.png(
            width: 3,
            height: 1,
            colorType: .rgba,
            rows: [[200, 10, 20, 255, 0, 0, 0, 0, 255, 0, 0, 128]]
        )

        let image = try Imaging.decode(png)

        #expect(image.pixel(x: 0, y: 0) == (200, 10, 20))
        #expect(image.pixel(x: 1, y: 0) == (255, 255, 255))
        // 255·128/255 + 255·127/255 for red; 0·128/255 + 255·127/255 = 127 for green and blue.
        #expect(image.pixel(x: 2, y: 0) == (255, 127, 127))
    }

    @Test("a palette PNG with tRNS decodes to the palette colours with transparency on white")
    func palette() throws {
        let png = PNGBuilder.png(
            width: 4,
            height: 1,
            colorType: .palette,
            rows: [[0, 1, 2, 1]],
            palette: [10, 20, 30, 0, 0, 0, 40, 200, 90],
            transparency: [255, 0]
        )

        let image = try Imaging.decode(png)

        #expect(image.pixel(x: 0, y: 0) == (10, 20, 30))
        #expect(image.pixel(x: 1, y: 0) == (255, 255, 255))
        #expect(image.pixel(x: 2, y: 0) == (40, 200, 90))
        #expect(image.pixel(x: 3, y: 0) == (255, 255, 255))
    }

    @Test("a 4-bit palette PNG unpacks its indices")
    func palette4Bit() throws {
        let png = PNGBuilder.png(
            width: 3,
            height: 1,
            bitDepth: 4,
            colorType: .palette,
            rows: [[0x01, 0x20]],
            palette: [1, 2, 3, 4, 5, 6, 7, 8, 9]
        )

        let image = try Imaging.decode(png)

        #expect(image.pixels == [1, 2, 3, 4, 5, 6, 7, 8, 9])
    }

    @Test("a 16-bit RGB PNG without gamma information is reduced to its high bytes (treated as sRGB)")
    func rgb16() throws {
        let png = PNGBuilder.png(
            width: 2,
            height: 1,
            bitDepth: 16,
            colorType: .rgb,
            rows: [[0xFF, 0xFF, 0x80, 0x00, 0x00, 0x00, 0x40, 0x40, 0xC0, 0xC0, 0x12, 0x34]]
        )

        let image = try Imaging.decode(png)

        #expect(TestImages.distance(image.pixel(x: 0, y: 0), (255, 128, 0)) <= 1)
        #expect(TestImages.distance(image.pixel(x: 1, y: 0), (64, 192, 18)) <= 1)
    }

    @Test("a 16-bit RGBA PNG is reduced to 8 bits and flattened on white")
    func rgba16() throws {
        let png = PNGBuilder.png(
            width: 2,
            height: 1,
            bitDepth: 16,
            colorType: .rgba,
            rows: [[0x20, 0x00, 0x40, 0x00, 0x60, 0x00, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0]]
        )

        let image = try Imaging.decode(png)

        #expect(TestImages.distance(image.pixel(x: 0, y: 0), (32, 64, 96)) <= 1)
        #expect(image.pixel(x: 1, y: 0) == (255, 255, 255))
    }

    @Test("an 8-bit grayscale PNG decodes to equal RGB channels")
    func gray8() throws {
        let png = PNGBuilder.png(width: 3, height: 1, colorType: .gray, rows: [[0, 77, 255]])

        let image = try Imaging.decode(png)

        #expect(image.pixels == [0, 0, 0, 77, 77, 77, 255, 255, 255])
    }

    @Test("a 1-bit grayscale PNG expands to black and white")
    func gray1() throws {
        let png = PNGBuilder.png(width: 4, height: 1, bitDepth: 1, colorType: .gray, rows: [[0b1010_0000]])

        let image = try Imaging.decode(png)

        #expect(image.pixels == [255, 255, 255, 0, 0, 0, 255, 255, 255, 0, 0, 0])
    }

    @Test("a gray-alpha PNG is flattened on white")
    func grayAlpha() throws {
        let png = PNGBuilder.png(width: 2, height: 1, colorType: .grayAlpha, rows: [[50, 255, 0, 0]])

        let image = try Imaging.decode(png)

        #expect(image.pixels == [50, 50, 50, 255, 255, 255])
    }

    @Test("PNGs ignore atLeast and decode at full size")
    func pngIgnoresAtLeast() throws {
        let png = PNGBuilder.png(width: 4, height: 2, colorType: .gray, rows: [[1, 2, 3, 4], [5, 6, 7, 8]])

        let image = try Imaging.decode(png, atLeast: (1, 1))

        #expect(image.width == 4 && image.height == 2)
    }
}
