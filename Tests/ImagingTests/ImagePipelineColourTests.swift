import ImageFixtures
import Imaging
import Testing

/// Display P3 photos come out in sRGB, whatever container carries the profile. The expected values come from
/// `ColourMath` (the standard matrices and curves), not from Little CMS.
struct ImagePipelineColourTests {
    /// sRGB colours well inside both gamuts, so they survive the round trip exactly.
    static let targets = [(200, 80, 60), (60, 160, 90), (70, 90, 200), (230, 200, 120)]
    /// The same colours as Display P3 samples: what a phone stores.
    static let p3Samples = targets.map { ColourMath.convert($0, from: ICCBuilder.sRGB, to: ICCBuilder.displayP3) }
    static let profile = ICCBuilder.profile(primaries: ICCBuilder.displayP3, description: "Display P3 (test)")
    static let p3Image = TestImages.patches(width: 64, height: 64, p3Samples)

    /// Checks the patch centres against `targets`.
    static func expectSRGB(_ jpeg: [UInt8], tolerance: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let output = try Imaging.decode(jpeg)
        for (index, (x, y)) in [(16, 16), (48, 16), (16, 48), (48, 48)].enumerated() {
            let pixel = output.pixel(x: x, y: y)
            #expect(
                TestImages.distance(pixel, targets[index]) <= tolerance,
                "patch \(index): \(pixel), expected \(targets[index]) (P3 samples \(p3Samples[index]))",
                sourceLocation: sourceLocation
            )
        }
    }

    @Test("the reference values differ enough that an unconverted photo fails the check")
    func referenceIsDiscriminating() {
        let largest = zip(Self.targets, Self.p3Samples).map { TestImages.distance((UInt8($0.1.0), UInt8($0.1.1), UInt8($0.1.2)), $0.0) }.max()
        #expect((largest ?? 0) >= 20)
    }

    @Test("a P3 JPEG, its profile split over two APP2 markers, comes out in sRGB")
    func jpegSplitProfile() throws {
        let plain = try Imaging.encodeJPEG(Self.p3Image, quality: 98, subsampling420: false)
        let jpeg = ExifBuilder.splice(ICCBuilder.app2Segments(Self.profile, chunk: Self.profile.count / 2 + 1), into: plain)

        let result = try ImagePipeline.process(jpeg)

        try Self.expectSRGB(result.jpeg, tolerance: 5)
        ImagePipelineFormatTests.expectClean(result.jpeg)
    }

    @Test("a JPEG whose profile chunks are incomplete is read as sRGB rather than refused")
    func jpegBrokenProfile() throws {
        let plain = try Imaging.encodeJPEG(Self.p3Image, quality: 98, subsampling420: false)
        let segments = ICCBuilder.app2Segments(Self.profile, chunk: Self.profile.count / 2 + 1)
        // Only the first of two chunks.
        let firstLength = Int(segments[2]) << 8 | Int(segments[3])
        let jpeg = ExifBuilder.splice(Array(segments[0..<(2 + firstLength)]), into: plain)

        let output = try Imaging.decode(try ImagePipeline.process(jpeg).jpeg)

        let pixel = output.pixel(x: 16, y: 16)
        #expect(TestImages.distance(pixel, Self.p3Samples[0]) <= 5)
    }

    @Test("a P3 PNG (iCCP) comes out in sRGB")
    func pngProfile() throws {
        let png = TestImages.png(Self.p3Image, chunks: [("iCCP", ICCBuilder.iCCP(Self.profile))])

        try Self.expectSRGB(try ImagePipeline.process(png).jpeg, tolerance: 5)
    }

    @Test("a P3 WebP (ICCP) comes out in sRGB")
    func webpProfile() throws {
        let fixtures = try FixtureDirectory()
        try fixtures.write("in.png", TestImages.png(Self.p3Image, chunks: [("iCCP", ICCBuilder.iCCP(Self.profile))]))
        try fixtures.run("cwebp", ["-quiet", "-lossless", "-exact", "-metadata", "icc", "in.png", "-o", "out.webp"])

        try Self.expectSRGB(try ImagePipeline.process(fileAt: fixtures.path("out.webp")).jpeg, tolerance: 5)
    }

    @Test("a P3 HEIC (prof) comes out in sRGB")
    func heicProfile() throws {
        let fixtures = try FixtureDirectory()
        try fixtures.write("in.png", TestImages.png(Self.p3Image, chunks: [("iCCP", ICCBuilder.iCCP(Self.profile))]))
        try fixtures.run("heif-enc", ["-q", "95", "-p", "chroma=444", "in.png", "-o", "out.heic"])

        try Self.expectSRGB(try ImagePipeline.process(fileAt: fixtures.path("out.heic")).jpeg, tolerance: 8)
    }

    @Test("an AVIF described by nclx as Display P3 (primaries 12, sRGB transfer) comes out in sRGB")
    func avifNCLX() throws {
        let fixtures = try FixtureDirectory()
        try fixtures.write("in.png", TestImages.png(Self.p3Image))
        try fixtures.run("avifenc", ["--min", "0", "--max", "0", "-s", "8", "-y", "444", "--cicp", "12/13/6", "in.png", "out.avif"])

        try Self.expectSRGB(try ImagePipeline.process(fileAt: fixtures.path("out.avif")).jpeg, tolerance: 8)
    }

    @Test("an sRGB-tagged HEIC (nclx 1/13/6) keeps its samples")
    func heifSRGB() throws {
        let fixtures = try FixtureDirectory()
        try fixtures.write("in.png", TestImages.png(Self.p3Image))
        try fixtures.run("avifenc", ["--min", "0", "--max", "0", "-s", "8", "-y", "444", "--cicp", "1/13/6", "in.png", "out.avif"])

        let output = try Imaging.decode(try ImagePipeline.process(fileAt: fixtures.path("out.avif")).jpeg)

        #expect(TestImages.distance(output.pixel(x: 16, y: 16), Self.p3Samples[0]) <= 6)
    }
}
