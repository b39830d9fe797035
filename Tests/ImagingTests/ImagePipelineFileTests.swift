import ImageFixtures
import Imaging
import Testing

/// `ImagePipeline.process(fileAt:)`: uploads read in place from the temporary file the server streamed them to.
struct ImagePipelineFileTests {
    @Test("a 48-megapixel JPEG read from its file is fitted to 2000 px, upright, within the byte limit")
    func fortyEightMegapixels() throws {
        let fixtures = try FixtureDirectory()
        let upright = TestImages.largeQuadrants(width: 8064, height: 6048)
        let path = try fixtures.write("48mp.jpg", try ImagePipelineOrientationTests.jpeg(showing: upright, orientation: 6))

        let result = try ImagePipeline.process(fileAt: path)

        #expect(result.width == 2000 && result.height == 1500)
        #expect(result.orientation == 6)
        ImagePipelineFormatTests.expectShows(try Imaging.decode(result.jpeg), TestImages.largeQuadrants(width: 2000, height: 1500))
        ImagePipelineFormatTests.expectClean(result.jpeg)
    }

    @Test("reading from a file gives the same photo as reading the same bytes from memory", arguments: ["jpeg", "png"])
    func fileEqualsMemory(kind: String) throws {
        let fixtures = try FixtureDirectory()
        let image = TestImages.noisy(width: 900, height: 600, amplitude: 20)
        let bytes = kind == "png" ? TestImages.png(image) : try Imaging.encodeJPEG(image, quality: 90)
        let path = try fixtures.write("in", bytes)
        var options = PipelineOptions()
        options.maxEdge = 500

        let fromFile = try ImagePipeline.process(fileAt: path, options: options)
        let fromMemory = try ImagePipeline.process(bytes, options: options)

        #expect(fromFile.jpeg == fromMemory.jpeg)
        #expect(fromFile.width == 500 && fromFile.height == 333)
    }

    @Test("a PNG with alpha read from its file is flattened on white")
    func pngAlphaFromFile() throws {
        let fixtures = try FixtureDirectory()
        let row = (0..<32).flatMap { x -> [UInt8] in x < 16 ? [255, 0, 0, 255] : [0, 0, 0, 0] }
        let path = try fixtures.write("a.png", PNGBuilder.png(width: 32, height: 16, colorType: .rgba, rows: Array(repeating: row, count: 16)))

        let output = try Imaging.decode(try ImagePipeline.process(fileAt: path).jpeg)

        #expect(TestImages.distance(output.pixel(x: 4, y: 8), (255, 0, 0)) <= 16)
        #expect(TestImages.distance(output.pixel(x: 28, y: 8), (255, 255, 255)) <= 8)
    }

    @Test("a file over maxFileBytes is refused before it is read, with both sizes in the message")
    func fileTooLarge() throws {
        let fixtures = try FixtureDirectory()
        let path = try fixtures.write("big.jpg", [0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0, count: 2_600_000))
        var options = PipelineOptions()
        options.maxFileBytes = 1_000_000

        let error = #expect(throws: ImagingError.self) { try ImagePipeline.process(fileAt: path, options: options) }

        #expect(error?.kind == .tooLarge)
        #expect(error?.description == "This file is 2.6 MB; the limit is 1 MB.")
    }

    @Test("a missing file is unreadable, and an empty one is not a photo")
    func missingAndEmpty() throws {
        let fixtures = try FixtureDirectory()
        let empty = try fixtures.write("empty", [])

        let missing = #expect(throws: ImagingError.self) { try ImagePipeline.process(fileAt: fixtures.path("nope")) }
        let none = #expect(throws: ImagingError.self) { try ImagePipeline.process(fileAt: empty) }

        #expect(missing?.kind == .unreadable)
        #expect(none?.kind == .unsupportedFormat)
    }

    @Test("sniff(fileAt:) reads the format from the first bytes of a file")
    func sniffFile() throws {
        let fixtures = try FixtureDirectory()
        let jpeg = try fixtures.write("x", try Imaging.encodeJPEG(TestImages.gradient(width: 8, height: 8), quality: 80))

        #expect(Imaging.sniff(fileAt: jpeg) == .jpeg)
        #expect(Imaging.sniff(fileAt: try fixtures.write("t", Array("hello".utf8))) == nil)
        #expect(Imaging.sniff(fileAt: fixtures.path("missing")) == nil)
    }
}

extension ImagePipelineFileTests {
    /// Large enough (1.5 MP) that the resampler filters rows on a second thread while libpng decodes.
    static let largePNG = TestImages.png(TestImages.gradient(width: 1500, height: 1000))

    @Test("a large PNG streams through the two-thread resampler to the same picture")
    func largePNGThreaded() throws {
        var options = PipelineOptions()
        options.maxEdge = 600

        let output = try Imaging.decode(try ImagePipeline.process(Self.largePNG, options: options).jpeg)

        #expect(output.width == 600 && output.height == 400)
        #expect(TestImages.meanAbsoluteError(output, TestImages.gradient(width: 600, height: 400)) < 2)
    }

    @Test("a large PNG cut short fails as corrupt from the decoding thread, without hanging")
    func largePNGTruncated() throws {
        let cut = Array(Self.largePNG.prefix(Self.largePNG.count / 2))

        let error = #expect(throws: ImagingError.self) { try ImagePipeline.process(cut) }

        #expect(error?.kind == .corrupt && error?.format == .png)
    }
}
