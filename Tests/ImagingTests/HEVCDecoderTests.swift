import CDe265
import CHeif
import ImageFixtures
import Testing

@testable import Imaging

/// Our HEVC decoder for libheif (`HEVCDecoder`) against libheif's built-in one: the same libde265 underneath, so
/// every picture must come out sample for sample the same, only on more threads.
struct HEVCDecoderTests {
    /// A HEIC made by heif-enc from a PNG built here.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let alpha: Bool
        let encoderArguments: [String]
        var testDescription: String { name }
    }

    // heif-enc 1.15 writes every stream as BT.601 in full range (its matrix and range options do not reach a PNG's
    // encode); the other matrices are checked against the H.273 equations in YCbCrMatrixTests.
    static let cases = [
        Case(name: "4:2:0 (as phones write)", alpha: false, encoderArguments: []),
        Case(name: "4:2:2", alpha: false, encoderArguments: ["-p", "chroma=422"]),
        Case(name: "4:4:4", alpha: false, encoderArguments: ["-p", "chroma=444"]),
        Case(name: "with alpha (a monochrome auxiliary picture)", alpha: true, encoderArguments: []),
    ]

    /// Odd, so chroma planes round and the last column and row matter.
    static let (width, height) = (641, 479)

    @Test("libheif chooses our decoder for HEVC, ahead of its own")
    func registeredFirst() {
        #expect(HEIFReader.initialized)
        var descriptors = [OpaquePointer?](repeating: nil, count: 8)
        let count = Int(heif_get_decoder_descriptors(heif_compression_HEVC, &descriptors, 8))
        let names = descriptors[0..<count].compactMap { $0.flatMap { heif_decoder_descriptor_get_id_name($0) }.map { String(cString: $0) } }
        #expect(names.first == "\(HEVCDecoder.idName)")
        #expect(names.contains("libde265"), "libheif's own decoder is still there: \(names)")
    }

    @Test("decodes to the pixels libheif's built-in decoder gives (Debian's heif-convert), within rounding", arguments: cases)
    func samePixels(_ testCase: Case) throws {
        // setup: a noisy picture, so every sample matters; the alpha channel is a left-to-right ramp.
        let fixtures = try FixtureDirectory()
        let (width, height) = (Self.width, Self.height)
        let noisy = TestImages.noisy(width: width, height: height, amplitude: 60)
        let rows = (0..<height).map { y in
            (0..<width).flatMap { x -> [UInt8] in
                let p = noisy.pixel(x: x, y: y)
                return testCase.alpha ? [p.red, p.green, p.blue, Self.ramp(x)] : [p.red, p.green, p.blue]
            }
        }
        try fixtures.write("in.png", PNGBuilder.png(width: width, height: height, colorType: testCase.alpha ? .rgba : .rgb, rows: rows))
        try fixtures.run("heif-enc", ["-q", "70"] + testCase.encoderArguments + ["in.png", "-o", "out.heic"])
        // The oracle: heif-convert only has libheif's own decoder and conversion.
        try fixtures.run("heif-convert", ["--quiet", "out.heic", "expected.png"])
        let expected = try Imaging.decode(fixtures.read("expected.png"))

        // act: the upload path (HEIFReader, so our decoder and, without alpha, planar rows).
        let ours = try Imaging.decode(fixtures.read("out.heic"))

        // assert
        #expect(ours.width == width && ours.height == height)
        let differences = zip(ours.pixels, expected.pixels).map { abs(Int($0) - Int($1)) }
        let worst = differences.max() ?? 0
        let mean = Double(differences.reduce(0, +)) / Double(max(1, differences.count))
        #expect(worst <= 2, "largest difference \(worst)")
        #expect(mean < 0.5, "mean difference \(mean)")
        #expect(Set(ours.pixels).count > 64, "a real picture came out, not a flat fill")
        if testCase.alpha {
            // Flattened on white, the ramp shows as a fade from white; the plane itself must be the ramp that went in.
            let alpha = try Self.decode(fixtures.path("out.heic"), heif_colorspace_YCbCr, heif_chroma_420) { image in
                try Self.plane(image, heif_channel_Alpha)
            }
            let off = alpha.enumerated().map { abs(Int($1) - Int(Self.ramp($0 % width))) }.max()
            #expect(alpha.count == width * height)
            #expect(off.map { $0 <= 8 } == true, "alpha off the ramp by up to \(off ?? -1)")
        }
    }

    @Test(
        "converts with the container's colour description when the decoding thread holds one, not the stream's",
        arguments: [(1, false), (9, true)]
    )
    func containerMatrix(matrix: Int, fullRange: Bool) throws {
        // setup: heif-enc's stream says BT.601, full range, which is what the decoder uses when nothing is held.
        let fixtures = try FixtureDirectory()
        let (width, height) = (Self.width, Self.height)
        let noisy = TestImages.noisy(width: width, height: height, amplitude: 60)
        try fixtures.write("in.png", TestImages.png(noisy))
        try fixtures.run("heif-enc", ["-q", "70", "in.png", "-o", "out.heic"])
        let (kr, kb) = try #require(YCbCrMatrixTests.coefficients.first { $0.matrix == matrix }.map { ($0.kr, $0.kb) })
        let planes = { (held: ContainerColour?) throws -> [[UInt8]] in
            try Self.decode(fixtures.path("out.heic"), heif_colorspace_RGB, heif_chroma_444, holding: held) { image in
                try [heif_channel_R, heif_channel_G, heif_channel_B].map { try Self.plane(image, $0) }
            }
        }

        // act
        let stream = try planes(nil)
        let container = try planes(ContainerColour(matrixCoefficients: matrix, fullRange: fullRange))

        // assert: the stream's conversion taken back to YCbCr (BT.601, full range) and forward with the container's
        // matrix, by H.273's equations; rounding on the way back allows a few levels.
        var worst = 0
        var moved = 0
        var compared = 0
        for index in 0..<(width * height) {
            // A clamped channel no longer says what the samples were.
            guard (0..<3).allSatisfy({ (1...254).contains(stream[$0][index]) }) else { continue }
            compared += 1
            let (r, g, b) = (Double(stream[0][index]), Double(stream[1][index]), Double(stream[2][index]))
            let luma = 0.299 * r + 0.587 * g + 0.114 * b
            let cb = (b - luma) / (2 * (1 - 0.114)) + 128
            let cr = (r - luma) / (2 * (1 - 0.299)) + 128
            let expected = YCbCrMatrixTests.reference(luma, cb, cr, kr: kr, kb: kb, fullRange: fullRange)
            for channel in 0..<3 {
                worst = max(worst, abs(expected[channel] - Int(container[channel][index])))
                moved = max(moved, abs(Int(stream[channel][index]) - Int(container[channel][index])))
            }
        }
        #expect(compared > width * height / 2)
        #expect(worst <= 3, "off by up to \(worst)")
        #expect(moved > 10, "the container's matrix changed the picture (by up to \(moved))")
    }

    @Test("a file whose container describes BT.709 in limited range decodes as libheif's own decoder shows it")
    func containerDescriptionInFile() throws {
        // setup: an even size, so heif-enc writes one coded image (odd sizes become a one-tile grid), and a colr
        // box added to it that disagrees with the stream's BT.601 full range.
        let fixtures = try FixtureDirectory()
        let (width, height) = (640, 480)
        let noisy = TestImages.noisy(width: width, height: height, amplitude: 60)
        try fixtures.write("in.png", TestImages.png(noisy))
        try fixtures.run("heif-enc", ["-q", "70", "in.png", "-o", "plain.heic"])
        let plain = try fixtures.read("plain.heic")
        try fixtures.write("described.heic", HEIFBoxes.addingNCLX(to: plain, matrixCoefficients: 1, fullRange: false))
        try fixtures.run("heif-convert", ["--quiet", "described.heic", "expected.png"])
        let expected = try Imaging.decode(fixtures.read("expected.png"))

        // act
        let described = try Imaging.decode(fixtures.read("described.heic"))
        let undescribed = try Imaging.decode(plain)

        // assert
        let differences = zip(described.pixels, expected.pixels).map { abs(Int($0) - Int($1)) }
        #expect(described.width == width && described.height == height)
        #expect(differences.max().map { $0 <= 2 } == true, "largest difference \(differences.max() ?? -1)")
        let moved = zip(described.pixels, undescribed.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(moved > 10, "the container's description changed the picture (by up to \(moved))")
    }

    @Test("a 10-bit HEIC decodes through our decoder to the picture it was made from")
    func tenBits() throws {
        // setup: a 16-bit PNG of a smooth gradient, encoded at 10 bits.
        let fixtures = try FixtureDirectory()
        let (width, height) = (Self.width, Self.height)
        let gradient = TestImages.gradient(width: width, height: height)
        let rows = (0..<height).map { y in
            Array(gradient.pixels[(y * width * 3)..<((y + 1) * width * 3)]).flatMap { [$0, $0] }
        }
        try fixtures.write("in.png", PNGBuilder.png(width: width, height: height, bitDepth: 16, colorType: .rgb, rows: rows))
        try fixtures.run("heif-enc", ["-q", "90", "-b", "10", "in.png", "-o", "out.heic"])

        // act
        let pixels = try Self.decode(fixtures.path("out.heic"), heif_colorspace_RGB, heif_chroma_interleaved_RGB) { image in
            try Self.plane(image, heif_channel_interleaved, bytesPerPixel: 3)
        }

        // assert
        let decoded = RGBImage(width: width, height: height, pixels: pixels)
        #expect(pixels.count == width * height * 3)
        #expect(TestImages.meanAbsoluteError(decoded, gradient) < 2)
    }

    @Test("a NAL unit whose length runs past the data is refused, not read")
    func truncatedNALUnit() throws {
        let decoder = try #require(de265_new_decoder())
        defer { _ = de265_free_decoder(decoder) }
        let cut: [UInt8] = [0, 0, 0, 40, 0x40, 0x01, 0x0C]
        let short: [UInt8] = [0, 0, 1]
        for data in [cut, short] {
            let error = data.withUnsafeBufferPointer { HEVCDecoder.pushNALUnits(decoder, $0.baseAddress!, $0.count) }
            #expect(error.code == heif_error_Decoder_plugin_error)
            #expect(error.subcode == heif_suberror_End_of_data)
        }
    }

    static func ramp(_ x: Int) -> UInt8 {
        UInt8(x * 255 / (width - 1))
    }

    /// The file's primary image decoded through libheif (so by the decoder it ranks first), 8 bits per sample,
    /// optionally with a container colour description held on the decoding thread.
    static func decode<T>(
        _ path: String,
        _ colorspace: heif_colorspace,
        _ chroma: heif_chroma,
        holding container: ContainerColour? = nil,
        _ body: (OpaquePointer) throws -> T
    ) throws -> T {
        #expect(HEIFReader.initialized)
        let context = try #require(heif_context_alloc())
        defer { heif_context_free(context) }
        // As HEIFReader does for a file with its own description: decode on this thread, which holds it.
        if container != nil { heif_context_set_max_decoding_threads(context, 0) }
        try #require(heif_context_read_from_file(context, path, nil).code == heif_error_Ok)
        var handle: OpaquePointer?
        try #require(heif_context_get_primary_image_handle(context, &handle).code == heif_error_Ok)
        defer { heif_image_handle_release(handle) }
        let options = try #require(heif_decoding_options_alloc())
        defer { heif_decoding_options_free(options) }
        options.pointee.convert_hdr_to_8bit = 1
        var decoded: OpaquePointer?
        let error = try ContainerColour.holding(container) { () throws(ImagingError) in
            heif_decode_image(handle, &decoded, colorspace, chroma, options)
        }
        try #require(error.code == heif_error_Ok, "\(error.message.map { String(cString: $0) } ?? "")")
        let image = try #require(decoded)
        defer { heif_image_release(image) }
        return try body(image)
    }

    /// One plane's samples, row padding removed.
    static func plane(_ image: OpaquePointer, _ channel: heif_channel, bytesPerPixel: Int = 1) throws -> [UInt8] {
        var stride: Int32 = 0
        let base = try #require(heif_image_get_plane_readonly(image, channel, &stride))
        let width = Int(heif_image_get_width(image, channel))
        let height = Int(heif_image_get_height(image, channel))
        return (0..<height).flatMap { Array(UnsafeBufferPointer(start: base + $0 * Int(stride), count: width * bytesPerPixel)) }
    }
}
