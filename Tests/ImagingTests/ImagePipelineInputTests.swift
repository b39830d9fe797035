import ImageFixtures
import Imaging
import Testing

struct ImagePipelineInputTests {
    /// A real JPEG whose SOF0 claims another size; its scan data cannot decode at that size, so a `.tooLarge`
    /// (rather than `.corrupt`) result shows the header was refused before decoding.
    static func jpeg(claiming width: Int, _ height: Int) throws -> [UInt8] {
        var jpeg = try Imaging.encodeJPEG(TestImages.gradient(width: 16, height: 16), quality: 80)
        let sof = try #require(jpeg.indices.first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg[sof + 5] = UInt8(height >> 8)
        jpeg[sof + 6] = UInt8(height & 0xFF)
        jpeg[sof + 7] = UInt8(width >> 8)
        jpeg[sof + 8] = UInt8(width & 0xFF)
        return jpeg
    }

    @Test("images over the pixel limit are refused from the header, before any decoding")
    func pixelLimit() throws {
        let pngBomb = PNGBuilder.headerOnly(width: 10_000, height: 10_000)
        let jpegBomb = try Self.jpeg(claiming: 9_000, 9_000)
        var strict = PipelineOptions()
        strict.maxPixels = 100
        let small = try Imaging.encodeJPEG(TestImages.gradient(width: 20, height: 20), quality: 80)

        for bytes in [pngBomb, jpegBomb] {
            let error = #expect(throws: ImagingError.self) { try ImagePipeline.process(bytes) }
            #expect(error?.kind == .tooLarge)
        }
        let error = #expect(throws: ImagingError.self) { try ImagePipeline.process(small, options: strict) }
        #expect(error?.kind == .tooLarge)
    }

    @Test("a side over 12,000 px is refused even under the pixel limit")
    func sideLimit() throws {
        for bytes in [PNGBuilder.headerOnly(width: 12_001, height: 10), try Self.jpeg(claiming: 10, 12_001)] {
            let error = #expect(throws: ImagingError.self) { try ImagePipeline.process(bytes) }
            #expect(error?.kind == .tooLarge)
            #expect(error?.description.contains("per side") == true)
        }
    }

    @Test("non-images and damaged JPEGs fail with their own kinds")
    func badInput() throws {
        let jpeg = try Imaging.encodeJPEG(TestImages.gradient(width: 64, height: 64), quality: 80)

        let gif = #expect(throws: ImagingError.self) { try ImagePipeline.process(Array("GIF89a....".utf8)) }
        let truncated = #expect(throws: ImagingError.self) { try ImagePipeline.process(Array(jpeg.prefix(400))) }

        #expect(gif?.kind == .unsupportedFormat)
        #expect(truncated?.kind == .corrupt)
    }

    @Test("CMYK and YCCK JPEGs come out as the right RGB colours", arguments: ["CMYK", "YCCK"])
    func cmyk(variant: String) throws {
        let result = try ImagePipeline.process(variant == "CMYK" ? JPEGFixtures.cmykJPEG : JPEGFixtures.ycckJPEG)

        let output = try Imaging.decode(result.jpeg)
        #expect(result.width == 48 && result.height == 32)
        for patch in JPEGDecodeTests.inkPatches {
            let pixel = output.pixel(x: patch.x, y: patch.y)
            #expect(TestImages.distance(pixel, patch.rgb) <= 16, "\(variant) at (\(patch.x), \(patch.y)): \(pixel)")
        }
    }

    @Test("grayscale and progressive JPEGs come out with their content")
    func grayAndProgressive() throws {
        var gradient = [UInt8]()
        for y in 0..<48 { for x in 0..<64 { gradient += [UInt8(x * 4), UInt8(y * 5), 128] } }

        let progressive = try Imaging.decode(ImagePipeline.process(JPEGFixtures.progressiveJPEG).jpeg)
        let gray = try Imaging.decode(ImagePipeline.process(JPEGFixtures.grayJPEG).jpeg)

        #expect(TestImages.meanAbsoluteError(progressive, RGBImage(width: 64, height: 48, pixels: gradient)) < 4)
        #expect(gray.width == 64 && gray.height == 48)
        let pixel = gray.pixel(x: 32, y: 24)
        let luma = (299 * 4 * 32 + 587 * 5 * 24 + 114 * 128) / 1000
        #expect(TestImages.distance(pixel, (luma, luma, luma)) <= 6)
    }

    @Test("a PNG with alpha is flattened on white")
    func pngAlpha() throws {
        // setup: left half opaque red, right half fully transparent.
        let row = (0..<32).flatMap { x -> [UInt8] in x < 16 ? [255, 0, 0, 255] : [0, 0, 0, 0] }
        let png = PNGBuilder.png(width: 32, height: 16, colorType: .rgba, rows: Array(repeating: row, count: 16))

        // MUT
        let result = try ImagePipeline.process(png)

        // validate
        let output = try Imaging.decode(result.jpeg)
        #expect(result.width == 32 && result.height == 16)
        #expect(TestImages.distance(output.pixel(x: 4, y: 8), (255, 0, 0)) <= 16)
        #expect(TestImages.distance(output.pixel(x: 28, y: 8), (255, 255, 255)) <= 8)
    }
}
