import ImageFixtures
import Imaging
import Testing

struct ImagePipelineOrientationTests {
    /// The orientation whose transform undoes `orientation`'s (6 and 8 are each other's inverse; the rest are
    /// their own).
    static func inverse(_ orientation: Int) -> Int {
        orientation == 6 ? 8 : orientation == 8 ? 6 : orientation
    }

    /// A JPEG whose stored pixels, once `orientation` is applied, show `upright`.
    static func jpeg(showing upright: RGBImage, orientation: Int) throws -> [UInt8] {
        let stored = upright.oriented(exifOrientation: inverse(orientation))
        let plain = try Imaging.encodeJPEG(stored, quality: 95, subsampling420: false)
        return ExifBuilder.splice(ExifBuilder.app1(ExifBuilder().fields(orientation: orientation)), into: plain)
    }

    @Test("every EXIF orientation comes out upright with the upright size", arguments: 1...8)
    func orientations(orientation: Int) throws {
        // setup
        let upright = TestImages.quadrants(width: 64, height: 48)
        let jpeg = try Self.jpeg(showing: upright, orientation: orientation)

        // MUT
        let result = try ImagePipeline.process(jpeg)

        // validate
        #expect(result.orientation == orientation)
        #expect(result.metadata.orientation == orientation)
        #expect(result.width == 64 && result.height == 48)
        let output = try Imaging.decode(result.jpeg)
        #expect(output.width == 64 && output.height == 48)
        for (x, y) in [(16, 12), (48, 12), (16, 36), (48, 36)] {
            let expected = TestImages.quadrantColour(right: x >= 32, bottom: y >= 24)
            #expect(TestImages.distance(output.pixel(x: x, y: y), expected) <= 24, "at (\(x), \(y))")
        }
    }

    @Test("a sideways-stored large photo is fitted by its upright size, with the axes swapped for DCT scaling")
    func rotatedLargePhoto() throws {
        // setup: a portrait photo stored landscape, as phones do, with orientation 6.
        let upright = TestImages.gradient(width: 1600, height: 2400)
        let jpeg = try Self.jpeg(showing: upright, orientation: 6)
        let target = Imaging.fittedSize(width: 1600, height: 2400, maxWidth: 2000, maxHeight: 2000)

        // MUT
        let result = try ImagePipeline.process(jpeg)

        // validate
        #expect(result.width == target.width && result.height == target.height)
        #expect(result.width == 1333 && result.height == 2000)
        let output = try Imaging.decode(result.jpeg)
        #expect(TestImages.meanAbsoluteError(output, TestImages.gradient(width: 1333, height: 2000)) < 3)
    }

    @Test("without EXIF the orientation is 1 and the pixels are as stored")
    func noOrientation() throws {
        let upright = TestImages.quadrants(width: 40, height: 20)
        let jpeg = try Imaging.encodeJPEG(upright, quality: 95)

        let result = try ImagePipeline.process(jpeg)

        #expect(result.orientation == 1 && result.metadata.orientation == nil)
        #expect(result.width == 40 && result.height == 20)
        let output = try Imaging.decode(result.jpeg)
        #expect(TestImages.distance(output.pixel(x: 30, y: 5), (0, 255, 0)) <= 24)
    }

    @Test("a PNG's eXIf orientation is applied too")
    func pngOrientation() throws {
        let upright = TestImages.quadrants(width: 4, height: 2)
        let stored = upright.oriented(exifOrientation: Self.inverse(8))
        var rows: [[UInt8]] = []
        for y in 0..<stored.height {
            rows.append(Array(stored.pixels[y * stored.width * 3..<(y + 1) * stored.width * 3]))
        }
        let plain = PNGBuilder.png(width: stored.width, height: stored.height, colorType: .rgb, rows: rows)
        let png = ExifBuilder.png(ExifBuilder(littleEndian: false).fields(orientation: 8), into: plain)

        let result = try ImagePipeline.process(png)

        #expect(result.orientation == 8 && result.width == 4 && result.height == 2)
    }
}
