import Backend
import Foundation
import Geo
import ImageFixtures
import Imaging
import Lexicon
import Testing

@testable import App
@testable import Server

/// Every format a phone or a web page saves, through the create form of a running server to the published story:
/// a baseline JPEG under the byte limit, fitted, upright, in sRGB, with no metadata, and placed by its GPS.
@Suite(.serialized)
struct UploadFormatsTests {
    /// What one upload must become.
    struct Case {
        var name: String
        var bytes: [UInt8]
        var type: String
        /// The published size.
        var width: Int
        var height: Int
        /// Colours at points given as fractions of the width and height, as a person would see them.
        var colours: [(x: Double, y: Double, rgb: (Int, Int, Int))]
        var tolerance = 40
        var located = false
    }

    static let here = GPSCoordinate(latitude: 38.722_3, longitude: -9.139_3)

    /// EXIF as a phone writes it for a photo stored turned: an orientation, GPS, the camera.
    static func phoneExif(orientation: Int) -> [UInt8] {
        ExifBuilder().fields(orientation: orientation, gps: here, date: "2025:06:07 08:09:10", make: "PhoneCam", model: "P1")
    }

    /// The four quadrant colours of `TestImages.quadrants`, where an upright photo shows them.
    static let upright: [(x: Double, y: Double, rgb: (Int, Int, Int))] = [
        (0.25, 0.25, TestImages.quadrantColour(right: false, bottom: false)), (0.75, 0.25, TestImages.quadrantColour(right: true, bottom: false)),
        (0.25, 0.75, TestImages.quadrantColour(right: false, bottom: true)), (0.75, 0.75, TestImages.quadrantColour(right: true, bottom: true)),
    ]

    /// The colours of `image` at the four quarter points `upright` samples.
    static func quarterPoints(of image: RGBImage) -> [(x: Double, y: Double, rgb: (Int, Int, Int))] {
        upright.map { point in
            let p = image.pixel(x: Int(point.x * Double(image.width)), y: Int(point.y * Double(image.height)))
            return (point.x, point.y, (Int(p.red), Int(p.green), Int(p.blue)))
        }
    }

    /// The fixtures, made with Debian's encoders (avifenc, cwebp, heif-enc) and from the specifications.
    static func cases(_ fixtures: FixtureDirectory) throws -> [Case] {
        // Upright 640 × 480, stored turned as a phone stores a photo taken sideways (EXIF 6 or irot 3 undo it).
        let stored = TestImages.quadrants(width: 640, height: 480).oriented(exifOrientation: 8)
        try fixtures.write("turned.png", TestImages.png(stored))
        try fixtures.write("exif.bin", phoneExif(orientation: 6))
        try fixtures.run(
            "avifenc", ["--min", "0", "--max", "10", "-s", "8", "-y", "444", "--irot", "3", "--exif", "exif.bin", "turned.png", "irot.avif"])
        let turnedJPEG = ExifBuilder.splice(ExifBuilder.app1(phoneExif(orientation: 6)), into: try Imaging.encodeJPEG(stored, quality: 95))
        try fixtures.write("turned.jpg", turnedJPEG)
        try fixtures.run("cwebp", ["-quiet", "-q", "95", "-metadata", "all", "turned.jpg", "-o", "turned.webp"])
        try fixtures.run("heif-enc", ["-q", "80", "turned.jpg", "-o", "turned.heic"])

        // Display P3 samples of four sRGB colours, with the P3 profile in two APP2 markers, as an iPhone JPEG has it.
        let targets = [(200, 80, 60), (60, 160, 90), (70, 90, 200), (230, 200, 120)]
        let p3 = TestImages.patches(
            width: 256, height: 256, targets.map { ColourMath.convert($0, from: ICCBuilder.sRGB, to: ICCBuilder.displayP3) })
        let profile = ICCBuilder.profile(primaries: ICCBuilder.displayP3, description: "Display P3 (test)")
        let p3JPEG = ExifBuilder.splice(
            ICCBuilder.app2Segments(profile, chunk: profile.count / 2 + 1), into: try Imaging.encodeJPEG(p3, quality: 98, subsampling420: false))

        // Half opaque blue, half transparent: the transparent half is flattened on white.
        let row = (0..<400).flatMap { x -> [UInt8] in x < 200 ? [0, 0, 255, 255] : [0, 0, 0, 0] }
        let alpha = PNGBuilder.png(width: 400, height: 300, colorType: .rgba, rows: Array(repeating: row, count: 300))

        let big = try Imaging.encodeJPEG(TestImages.largeQuadrants(width: 8000, height: 6000), quality: 92)
        return [
            Case(
                name: "AVIF with irot 3 and EXIF 6 (rotated once, not twice)", bytes: try fixtures.read("irot.avif"), type: "image/avif",
                width: 640, height: 480, colours: upright, located: true),
            Case(
                name: "WebP with EXIF orientation 6 and GPS", bytes: try fixtures.read("turned.webp"), type: "image/webp", width: 640,
                height: 480, colours: upright, located: true),
            // heif-enc keeps the JPEG's EXIF but writes no irot: HEIF readers show such a file as stored (only
            // irot and imir turn a HEIF image), so the story does too, and the GPS still places it.
            Case(
                name: "HEIC from a JPEG with EXIF 6 and GPS", bytes: try fixtures.read("turned.heic"), type: "image/heic", width: 480,
                height: 640, colours: quarterPoints(of: stored), located: true),
            Case(
                name: "Display P3 JPEG", bytes: p3JPEG, type: "image/jpeg", width: 256, height: 256,
                colours: zip([(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)], targets).map { ($0.0.0, $0.0.1, $0.1) }, tolerance: 6),
            Case(
                name: "PNG with alpha", bytes: alpha, type: "image/png", width: 400, height: 300,
                colours: [(0.25, 0.5, (0, 0, 255)), (0.75, 0.5, (255, 255, 255))], tolerance: 16),
            Case(name: "48 MP JPEG", bytes: big, type: "image/jpeg", width: 2000, height: 1500, colours: upright),
        ]
    }

    @Test("AVIF, WebP, HEIC, a P3 JPEG, a PNG with alpha and a 48 MP JPEG each post through the form as a clean, upright sRGB JPEG")
    func everyFormatThroughTheForm() async throws {
        let fixtures = try FixtureDirectory()
        let cases = try Self.cases(fixtures)
        let live = try await LiveApp(demo: true)
        defer { Task { await live.stop() } }
        let browser = Browser(base: live.base)
        _ = try await SignInAndPostTests().signIn(browser, handle: "maya.home.test", password: "maya-stories")
        let form = UploadPipelineTests()
        for upload in cases {
            let posted = try await form.postForm(browser, photo: upload.bytes, type: upload.type, fields: [("useLocation", "on"), ("location", "")])
            #expect(posted.status == 303, "\(upload.name): \(posted.status) \(posted.body.prefix(300))")
            let record = try form.latestStory(live, handle: "maya.home.test")
            #expect(record.aspectRatio == AspectRatio(width: upload.width, height: upload.height), "\(upload.name)")
            let path = try #require(live.app.backend?.blobs.path(cid: record.media.cid, preset: .fullsize))
            let published = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            Self.expectClean(published, upload.name)
            let image = try Imaging.decode(published)
            #expect(image.width == upload.width && image.height == upload.height, "\(upload.name): \(image.width) × \(image.height)")
            for point in upload.colours {
                let pixel = image.pixel(x: Int(point.x * Double(image.width)), y: Int(point.y * Double(image.height)))
                #expect(
                    TestImages.distance(pixel, point.rgb) <= upload.tolerance,
                    "\(upload.name) at (\(point.x), \(point.y)): \(pixel), expected \(point.rgb)")
            }
            let cell = H3.cell(latitude: Self.here.latitude, longitude: Self.here.longitude, resolution: 10)?.description
            #expect((record.location?.value == cell) == upload.located, "\(upload.name): location \(String(describing: record.location))")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: live.dataDirectory + "/uploads")
        #expect(leftovers.isEmpty, "every upload's body and photo file are removed: \(leftovers)")
    }

    @Test("a HEIC over the pixel limit is refused by the form with 413, naming the format, its size and the limit; nothing is posted or kept")
    func oversizedHEICThroughTheForm() async throws {
        let bomb = try TestImages.heic(claiming: 11_000, 10_000)
        let live = try await LiveApp(demo: true)
        defer { Task { await live.stop() } }
        let browser = Browser(base: live.base)
        _ = try await SignInAndPostTests().signIn(browser, handle: "maya.home.test", password: "maya-stories")
        let form = UploadPipelineTests()
        let before = try form.latestStory(live, handle: "maya.home.test")

        let posted = try await form.postForm(browser, photo: bomb, type: "image/heic", fields: [("location", "")])

        #expect(posted.status == 413)
        #expect(posted.body.contains("This HEIC is 11,000 × 10,000 pixels; the limit is 50 megapixels."), "\(posted.body.prefix(2_000))")
        #expect(posted.body.contains(#"name="photo""#), "the form again, to choose another photo")
        #expect(try form.latestStory(live, handle: "maya.home.test") == before, "nothing was posted")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: live.dataDirectory + "/uploads")
        #expect(leftovers.isEmpty, "the upload's body is removed: \(leftovers)")
    }

    /// A baseline JPEG under the byte limit with a JFIF APP0 and nothing else from the upload.
    static func expectClean(_ jpeg: [UInt8], _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(Imaging.sniff(jpeg) == .jpeg, "\(name)", sourceLocation: sourceLocation)
        #expect(jpeg.count <= 900_000, "\(name): \(jpeg.count) bytes", sourceLocation: sourceLocation)
        #expect(Exif.read(jpeg) == ExifMetadata(), "\(name)", sourceLocation: sourceLocation)
        let markers = JPEGMarkers.header(jpeg)
        #expect(markers.first == 0xE0, "\(name): \(markers)", sourceLocation: sourceLocation)
        #expect(!markers.contains { (0xE1...0xEF).contains($0) || $0 == 0xFE }, "\(name): \(markers)", sourceLocation: sourceLocation)
        #expect(markers.contains(0xC0), "\(name): baseline (SOF0), \(markers)", sourceLocation: sourceLocation)
    }
}
