import ImageFixtures
import Imaging
import Testing

/// HEIC, AVIF and WebP uploads, made at test time with Debian's encoders.
struct ImagePipelineFormatTests {
    static let here = GPSCoordinate(latitude: 38.722_3, longitude: -9.139_3)

    /// EXIF as a phone writes it for a portrait photo stored landscape: orientation 6, GPS, camera.
    static func phoneExif(orientation: Int = 6) -> [UInt8] {
        ExifBuilder().fields(orientation: orientation, gps: here, date: "2025:06:07 08:09:10", make: "PhoneCam", model: "P1")
    }

    /// Checks the four quadrant centres of `output` against `expected`.
    static func expectShows(_ output: RGBImage, _ expected: RGBImage, tolerance: Int = 40, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(output.width == expected.width && output.height == expected.height, sourceLocation: sourceLocation)
        guard output.width == expected.width && output.height == expected.height else { return }
        let w = output.width
        let h = output.height
        for (x, y) in [(w / 4, h / 4), (3 * w / 4, h / 4), (w / 4, 3 * h / 4), (3 * w / 4, 3 * h / 4)] {
            let e = expected.pixel(x: x, y: y)
            #expect(
                TestImages.distance(output.pixel(x: x, y: y), (Int(e.red), Int(e.green), Int(e.blue))) <= tolerance,
                "at (\(x), \(y)): \(output.pixel(x: x, y: y)) for \(e)",
                sourceLocation: sourceLocation
            )
        }
    }

    /// The published file carries nothing from the upload: a JFIF APP0, no APP1–APP15 or COM, no EXIF strings.
    static func expectClean(_ jpeg: [UInt8], maxBytes: Int = PipelineOptions().maxBytes, sourceLocation: SourceLocation = #_sourceLocation) {
        let markers = JPEGMarkers.header(jpeg)
        #expect(jpeg.count <= maxBytes, sourceLocation: sourceLocation)
        #expect(markers.first == 0xE0, sourceLocation: sourceLocation)
        #expect(!markers.contains { (0xE1...0xEF).contains($0) || $0 == 0xFE }, "markers \(markers)", sourceLocation: sourceLocation)
        #expect(!ImagePipelinePrivacyTests.contains(jpeg, "Exif"), sourceLocation: sourceLocation)
        #expect(!ImagePipelinePrivacyTests.contains(jpeg, "PhoneCam"), sourceLocation: sourceLocation)
        #expect(!ImagePipelinePrivacyTests.contains(jpeg, "ICC_PROFILE"), sourceLocation: sourceLocation)
        #expect(Exif.read(jpeg) == ExifMetadata(), sourceLocation: sourceLocation)
    }

    static func expectGPS(_ metadata: ExifMetadata, sourceLocation: SourceLocation = #_sourceLocation) {
        let gps = metadata.gps
        #expect(gps != nil, sourceLocation: sourceLocation)
        if let gps {
            #expect(abs(gps.latitude - here.latitude) < 1e-4 && abs(gps.longitude - here.longitude) < 1e-4, sourceLocation: sourceLocation)
        }
    }

    @Test("a HEIC with EXIF orientation 6 and GPS: GPS read, pixels as libheif shows them, EXIF orientation not applied")
    func heicWithExif() throws {
        // setup: heif-enc keeps the JPEG's EXIF but writes no irot, so the HEIC displays as stored (HEIF readers
        // ignore EXIF orientation); applying it anyway would turn the photo sideways.
        let fixtures = try FixtureDirectory()
        let upright = TestImages.quadrants(width: 64, height: 48)
        let stored = upright.oriented(exifOrientation: 8)
        let jpeg = ExifBuilder.splice(ExifBuilder.app1(Self.phoneExif()), into: try Imaging.encodeJPEG(stored, quality: 95))
        try fixtures.write("in.jpg", jpeg)
        try fixtures.run("heif-enc", ["-q", "90", "in.jpg", "-o", "out.heic"])
        let heic = try fixtures.read("out.heic")
        #expect(Imaging.sniff(heic) == .heic)

        // MUT
        let result = try ImagePipeline.process(heic)

        // validate
        #expect(result.sourceFormat == .heic)
        #expect(result.orientation == 1)
        #expect(result.metadata.orientation == 6)
        #expect(result.metadata.make == "PhoneCam")
        Self.expectGPS(result.metadata)
        Self.expectShows(try Imaging.decode(result.jpeg), stored)
        Self.expectClean(result.jpeg)
    }

    @Test("an AVIF with irot (as phones write it, with EXIF orientation 6 too) comes out upright, rotated once")
    func avifWithRotation() throws {
        // setup: stored landscape; irot 3 turns it 270° anticlockwise (90° clockwise), like EXIF 6 would.
        let fixtures = try FixtureDirectory()
        let upright = TestImages.quadrants(width: 64, height: 48)
        let stored = upright.oriented(exifOrientation: 8)
        try fixtures.write("in.png", TestImages.png(stored))
        try fixtures.write("exif.bin", Self.phoneExif())
        try fixtures.run(
            "avifenc",
            ["--min", "0", "--max", "4", "-s", "8", "-y", "444", "--irot", "3", "--exif", "exif.bin", "in.png", "out.avif"]
        )
        let avif = try fixtures.read("out.avif")
        #expect(Imaging.sniff(avif) == .avif)
        #expect(try Imaging.readInfo(avif) == ImageInfo(format: .avif, width: 64, height: 48))

        // MUT
        let result = try ImagePipeline.process(avif)

        // validate
        #expect(result.sourceFormat == .avif && result.orientation == 1)
        #expect(result.width == 64 && result.height == 48)
        Self.expectGPS(result.metadata)
        Self.expectShows(try Imaging.decode(result.jpeg), upright)
        Self.expectClean(result.jpeg)
    }

    @Test("a WebP with EXIF orientation and GPS comes out upright, located and clean")
    func webpWithExif() throws {
        let fixtures = try FixtureDirectory()
        let upright = TestImages.quadrants(width: 64, height: 48)
        let stored = upright.oriented(exifOrientation: 8)
        let jpeg = ExifBuilder.splice(ExifBuilder.app1(Self.phoneExif()), into: try Imaging.encodeJPEG(stored, quality: 95))
        try fixtures.write("in.jpg", jpeg)
        try fixtures.run("cwebp", ["-quiet", "-q", "95", "-metadata", "all", "in.jpg", "-o", "out.webp"])
        let webp = try fixtures.read("out.webp")
        #expect(Imaging.sniff(webp) == .webp)

        let result = try ImagePipeline.process(webp)

        #expect(result.sourceFormat == .webp && result.orientation == 6)
        #expect(result.width == 64 && result.height == 48)
        Self.expectGPS(result.metadata)
        Self.expectShows(try Imaging.decode(result.jpeg), upright)
        Self.expectClean(result.jpeg)
    }

    @Test("a lossless WebP with alpha is flattened on white")
    func webpAlpha() throws {
        let fixtures = try FixtureDirectory()
        let row = (0..<32).flatMap { x -> [UInt8] in x < 16 ? [0, 0, 255, 255] : [0, 0, 0, 0] }
        try fixtures.write("in.png", PNGBuilder.png(width: 32, height: 16, colorType: .rgba, rows: Array(repeating: row, count: 16)))
        try fixtures.run("cwebp", ["-quiet", "-lossless", "-exact", "in.png", "-o", "out.webp"])

        let result = try ImagePipeline.process(try fixtures.read("out.webp"))

        let output = try Imaging.decode(result.jpeg)
        #expect(TestImages.distance(output.pixel(x: 4, y: 8), (0, 0, 255)) <= 16)
        #expect(TestImages.distance(output.pixel(x: 28, y: 8), (255, 255, 255)) <= 8)
    }

    @Test("a large HEIC is fitted to 2000 px like any other photo")
    func largeHEIC() throws {
        let fixtures = try FixtureDirectory()
        try fixtures.write("in.jpg", try Imaging.encodeJPEG(TestImages.largeQuadrants(width: 3000, height: 2000), quality: 90))
        try fixtures.run("heif-enc", ["-q", "60", "in.jpg", "-o", "out.heic"])

        let result = try ImagePipeline.process(fileAt: fixtures.path("out.heic"))

        #expect(result.width == 2000 && result.height == 1333)
        Self.expectShows(try Imaging.decode(result.jpeg), TestImages.largeQuadrants(width: 2000, height: 1333))
        Self.expectClean(result.jpeg)
    }
}
