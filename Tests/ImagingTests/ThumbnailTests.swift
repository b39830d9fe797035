import ImageFixtures
import Imaging
import Testing

struct ThumbnailTests {
    @Test("a landscape JPEG thumbnail fits the longest edge and keeps the picture")
    func landscapeJPEG() throws {
        let source = TestImages.gradient(width: 640, height: 480)
        let jpeg = try Imaging.encodeJPEG(source, quality: 95)

        let thumbnail = try Imaging.thumbnail(of: jpeg, maxEdge: 100)

        #expect(thumbnail.width == 100 && thumbnail.height == 75)
        #expect(try Imaging.readInfo(thumbnail.jpeg) == ImageInfo(format: .jpeg, width: 100, height: 75))
        let decoded = try Imaging.decode(thumbnail.jpeg)
        #expect(TestImages.meanAbsoluteError(decoded, TestImages.gradient(width: 100, height: 75)) < 3)
    }

    @Test("a portrait PNG thumbnail fits the longest edge")
    func portraitPNG() throws {
        let rows = (0..<60).map { y in [UInt8](repeating: UInt8(y * 4), count: 30 * 3) }
        let png = PNGBuilder.png(width: 30, height: 60, colorType: .rgb, rows: rows)

        let thumbnail = try Imaging.thumbnail(of: png, maxEdge: 20)

        #expect(thumbnail.width == 10 && thumbnail.height == 20)
        #expect(try Imaging.readInfo(thumbnail.jpeg) == ImageInfo(format: .jpeg, width: 10, height: 20))
    }

    @Test("a thumbnail never enlarges a small image")
    func noUpscale() throws {
        let jpeg = try Imaging.encodeJPEG(TestImages.gradient(width: 50, height: 40), quality: 90)

        let thumbnail = try Imaging.thumbnail(of: jpeg, maxEdge: 200)

        #expect(thumbnail.width == 50 && thumbnail.height == 40)
    }

    @Test("a square thumbnail keeps only the centre square")
    func squareKeepsCentre() throws {
        // setup: red bars in the outer 80 columns on each side, green in the centre 480×480
        var pixels = [UInt8]()
        for _ in 0..<480 {
            for x in 0..<640 { pixels += (80..<560).contains(x) ? [0, 200, 0] : [220, 0, 0] }
        }
        let jpeg = try Imaging.encodeJPEG(RGBImage(width: 640, height: 480, pixels: pixels), quality: 95)

        // MUT
        let thumbnail = try Imaging.squareThumbnail(of: jpeg, size: 64)

        // validate
        #expect(thumbnail.width == 64 && thumbnail.height == 64)
        let decoded = try Imaging.decode(thumbnail.jpeg)
        #expect(decoded.width == 64 && decoded.height == 64)
        for (x, y) in [(0, 0), (63, 0), (0, 63), (63, 63), (32, 32), (2, 40), (61, 20)] {
            #expect(TestImages.distance(decoded.pixel(x: x, y: y), (0, 200, 0)) <= 24, "at (\(x), \(y))")
        }
    }

    @Test("a square thumbnail of a small image is its centre square at its own size")
    func squareNoUpscale() throws {
        let jpeg = try Imaging.encodeJPEG(TestImages.gradient(width: 30, height: 20), quality: 90)

        let thumbnail = try Imaging.squareThumbnail(of: jpeg, size: 64)

        #expect(thumbnail.width == 20 && thumbnail.height == 20)
        #expect(try Imaging.readInfo(thumbnail.jpeg) == ImageInfo(format: .jpeg, width: 20, height: 20))
    }

    @Test("thumbnails of garbage or with a non-positive size throw")
    func thumbnailErrors() throws {
        let jpeg = try Imaging.encodeJPEG(TestImages.gradient(width: 8, height: 8), quality: 90)

        #expect(throws: ImagingError.self) { try Imaging.thumbnail(of: [1, 2, 3], maxEdge: 100) }
        #expect(throws: ImagingError.self) { try Imaging.squareThumbnail(of: [], size: 100) }
        let error = #expect(throws: ImagingError.self) { try Imaging.thumbnail(of: jpeg, maxEdge: 0) }
        #expect(error?.kind == .invalidArgument)
    }
}
