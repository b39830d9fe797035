import ImageFixtures
import Imaging
import Testing

struct ImagePipelineSizeTests {
    @Test("a large detailed photo comes out within 900,000 bytes and 2000 px, below the top quality")
    func largeNoisyPhoto() throws {
        // setup: at 4000×3000 and quality 95 this is about 10 MB; at the top quality it would not fit.
        let source = TestImages.noisy(width: 4000, height: 3000, amplitude: 64)
        let jpeg = try Imaging.encodeJPEG(source, quality: 95)

        // MUT
        let result = try ImagePipeline.process(jpeg)

        // validate
        #expect(result.jpeg.count <= 900_000)
        #expect(result.width == 2000 && result.height == 1500)
        #expect(try Imaging.readInfo(result.jpeg) == ImageInfo(format: .jpeg, width: 2000, height: 1500))
        #expect((40..<92).contains(result.quality))
        #expect(result.orientation == 1 && result.metadata == ExifMetadata())
    }

    @Test("the search picks the highest quality whose encoding fits")
    func highestFittingQuality() throws {
        // setup: no resize is needed, so the pipeline encodes exactly the decoded pixels.
        let jpeg = try Imaging.encodeJPEG(TestImages.noisy(width: 600, height: 400, amplitude: 64), quality: 98)
        let pixels = try Imaging.decode(jpeg)
        let at70 = try Imaging.encodeJPEG(pixels, quality: 70)
        var options = PipelineOptions()
        options.maxBytes = at70.count

        // MUT
        let result = try ImagePipeline.process(jpeg, options: options)

        // validate
        #expect(result.quality == 70)
        #expect(result.jpeg == at70)
        #expect(try Imaging.encodeJPEG(pixels, quality: 71).count > options.maxBytes)
    }

    @Test("a small image that fits at the top quality is encoded once at that quality, never enlarged")
    func smallImageTopQuality() throws {
        let jpeg = try Imaging.encodeJPEG(TestImages.gradient(width: 300, height: 200), quality: 90)

        let result = try ImagePipeline.process(jpeg)

        #expect(result.quality == 92)
        #expect(result.width == 300 && result.height == 200)
    }

    @Test("a tiny byte limit shrinks the image until the minimum quality fits")
    func downscalePath() throws {
        // setup
        let jpeg = try Imaging.encodeJPEG(TestImages.noisy(width: 1200, height: 900, amplitude: 64), quality: 95)
        var options = PipelineOptions()
        options.maxBytes = 60_000

        // MUT
        let result = try ImagePipeline.process(jpeg, options: options)

        // validate
        #expect(result.jpeg.count <= 60_000)
        #expect(result.width < 1200 && result.width >= 320)
        #expect(abs(Double(result.width) / Double(result.height) - 4.0 / 3.0) < 0.01)
        #expect(
            try Imaging.readInfo(result.jpeg) == ImageInfo(format: .jpeg, width: result.width, height: result.height)
        )
        #expect((40...92).contains(result.quality))
    }

    @Test("a limit no version of at least 320 px can meet fails with cannotFit")
    func cannotFit() throws {
        let jpeg = try Imaging.encodeJPEG(TestImages.noisy(width: 800, height: 600, amplitude: 64), quality: 90)
        var options = PipelineOptions()
        options.maxBytes = 2_000

        let error = #expect(throws: ImagingError.self) { try ImagePipeline.process(jpeg, options: options) }

        #expect(error?.kind == .cannotFit)
        #expect(error?.description.contains("2,000 bytes") == true)
    }

    @Test("byte limits above the story blob maximum and inverted quality ranges are refused")
    func invalidOptions() throws {
        let jpeg = try Imaging.encodeJPEG(TestImages.gradient(width: 8, height: 8), quality: 80)
        var tooMany = PipelineOptions()
        tooMany.maxBytes = 5_000_001
        var inverted = PipelineOptions()
        inverted.minimumQuality = 90
        inverted.maximumQuality = 50
        var largest = PipelineOptions()
        largest.maxBytes = 5_000_000

        let first = #expect(throws: ImagingError.self) { try ImagePipeline.process(jpeg, options: tooMany) }
        let second = #expect(throws: ImagingError.self) { try ImagePipeline.process(jpeg, options: inverted) }

        #expect(first?.kind == .invalidArgument)
        #expect(second?.kind == .invalidArgument)
        #expect(try ImagePipeline.process(jpeg, options: largest).width == 8)
    }

    @Test("a smaller maxEdge is honoured")
    func customEdge() throws {
        let jpeg = try Imaging.encodeJPEG(TestImages.gradient(width: 1000, height: 500), quality: 90)
        var options = PipelineOptions()
        options.maxEdge = 400

        let result = try ImagePipeline.process(jpeg, options: options)

        #expect(result.width == 400 && result.height == 200)
    }
}
