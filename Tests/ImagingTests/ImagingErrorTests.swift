import ImageFixtures
import Imaging
import Testing

/// Errors the upload form can show as they are: they name the format and the limit.
struct ImagingErrorTests {
    @Test("a HEIC over the pixel limit is refused from its header, naming the format, its size and the limit")
    func heicTooLarge() throws {
        let bomb = try TestImages.heic(claiming: 11_000, 10_000)

        let error = #expect(throws: ImagingError.self) { try ImagePipeline.process(bomb) }

        #expect(error?.kind == .tooLarge && error?.format == .heic)
        #expect(error?.description == "This HEIC is 11,000 × 10,000 pixels; the limit is 50 megapixels.")
    }

    @Test("a side over 12,000 px is refused for every format, naming it")
    func sideLimit() throws {
        let heic = try TestImages.heic(claiming: 14_000, 100)
        let png = PNGBuilder.headerOnly(width: 100, height: 12_001)

        let heicError = #expect(throws: ImagingError.self) { try ImagePipeline.process(heic) }
        let pngError = #expect(throws: ImagingError.self) { try ImagePipeline.process(png) }

        #expect(heicError?.description == "This HEIC is 14,000 × 100 pixels; the limit is 12,000 pixels per side.")
        #expect(pngError?.description == "This PNG is 100 × 12,001 pixels; the limit is 12,000 pixels per side.")
    }

    @Test("a WebP whose header claims too many pixels is refused before decoding")
    func webpTooLarge() throws {
        let fixtures = try FixtureDirectory()
        try fixtures.write("in.png", TestImages.png(TestImages.gradient(width: 64, height: 48)))
        try fixtures.run("cwebp", ["-quiet", "-q", "50", "in.png", "-o", "out.webp"])
        var webp = try fixtures.read("out.webp")
        // A simple lossy file: RIFF header, "VP8 " chunk header, 3-byte frame tag, start code, 14-bit sizes.
        #expect(webp[12..<16].elementsEqual("VP8 ".utf8))
        let at = 26
        for (offset, value) in [(0, 10_000), (2, 10_000)] {
            webp[at + offset] = UInt8(value & 0xFF)
            webp[at + offset + 1] = UInt8(value >> 8)
        }
        var options = PipelineOptions()
        options.maxPixels = 20_000_000

        let error = #expect(throws: ImagingError.self) { try ImagePipeline.process(webp, options: options) }

        #expect(error?.description == "This WebP is 10,000 × 10,000 pixels; the limit is 20 megapixels.")
    }

    @Test("a file in no supported format gets a sentence listing the formats")
    func unsupported() {
        let error = #expect(throws: ImagingError.self) { try ImagePipeline.process(Array("GIF89a........".utf8)) }

        #expect(error?.kind == .unsupportedFormat)
        #expect(error?.description == "This file is not a photo format we can read (JPEG, PNG, HEIC, AVIF or WebP).")
    }

    @Test("truncated HEIC, AVIF and WebP files are corrupt, named by format", arguments: ["heic", "avif", "webp"])
    func truncated(kind: String) throws {
        let fixtures = try FixtureDirectory()
        try fixtures.write("in.png", TestImages.png(TestImages.noisy(width: 64, height: 48, amplitude: 30)))
        switch kind {
        case "heic": try fixtures.run("heif-enc", ["-q", "80", "in.png", "-o", "out"])
        case "avif": try fixtures.run("avifenc", ["-s", "8", "in.png", "out.avif"])
        default: try fixtures.run("cwebp", ["-quiet", "-q", "80", "in.png", "-o", "out"])
        }
        let whole = try fixtures.read(kind == "avif" ? "out.avif" : "out")
        let cut = Array(whole.prefix(whole.count - 200))

        let error = #expect(throws: ImagingError.self) { try ImagePipeline.process(cut) }

        let format = try #require(Imaging.sniff(whole))
        #expect(error?.kind == .corrupt, "\(String(describing: error))")
        // The codec's message is copied out before its context is freed (the fuzzer once caught a read after free).
        #expect(error?.detail.isEmpty == false)
        #expect(error?.description == "This \(format.name) is damaged or incomplete, so it cannot be read. Try exporting it again.")
    }

    @Test("the format list and media types are what the upload form shows")
    func formatNames() {
        #expect(ImageFormat.allCases.map(\.name) == ["JPEG", "PNG", "HEIC", "AVIF", "WebP"])
        #expect(ImageFormat.allCases.map(\.mimeType) == ["image/jpeg", "image/png", "image/heic", "image/avif", "image/webp"])
        #expect(ImageFormat.namesForPeople == "JPEG, PNG, HEIC, AVIF or WebP")
    }
}

extension ImagingErrorTests {
    @Test("a HEIC whose header claims no pixels is corrupt (its libheif handles are released once)")
    func heicWithoutPixels() throws {
        let empty = try TestImages.heic(claiming: 0, 0)

        let error = #expect(throws: ImagingError.self) { try ImagePipeline.process(empty) }

        #expect(error?.kind == .corrupt && error?.format == .heic)
    }
}
