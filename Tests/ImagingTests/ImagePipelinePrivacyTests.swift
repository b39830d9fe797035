import ImageFixtures
import Imaging
import Testing

struct ImagePipelinePrivacyTests {
    static let here = GPSCoordinate(latitude: 51.500_7, longitude: -0.124_6)

    /// A JPEG carrying EXIF with GPS and camera fields, an ICC-style APP2 and a comment.
    static func taggedJPEG(littleEndian: Bool) throws -> [UInt8] {
        let tiff = ExifBuilder(littleEndian: littleEndian).fields(
            orientation: 1,
            gps: here,
            date: "2025:06:07 08:09:10",
            make: "SecretCam",
            model: "X1"
        )
        let icc = [0xFF, 0xE2, 0, 16] + Array("ICC_PROFILE\0".utf8) + [1, 1]
        let comment = [0xFF, 0xFE, 0, 9] + Array("private".utf8)
        let plain = try Imaging.encodeJPEG(TestImages.gradient(width: 120, height: 80), quality: 90)
        return ExifBuilder.splice(ExifBuilder.app1(tiff) + icc + comment, into: plain)
    }

    static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let needle = Array(needle.utf8)
        return haystack.indices.contains { haystack[$0...].starts(with: needle) }
    }

    @Test("GPS is reported in the metadata but absent from the output bytes", arguments: [true, false])
    func gpsReportedNotWritten(littleEndian: Bool) throws {
        // setup
        let jpeg = try Self.taggedJPEG(littleEndian: littleEndian)
        #expect(Self.contains(jpeg, "SecretCam"))

        // MUT
        let result = try ImagePipeline.process(jpeg)

        // validate
        let gps = try #require(result.metadata.gps)
        #expect(abs(gps.latitude - Self.here.latitude) < 1e-6 && abs(gps.longitude - Self.here.longitude) < 1e-6)
        #expect(result.metadata.make == "SecretCam" && result.metadata.dateTimeOriginal == "2025:06:07 08:09:10")
        #expect(Exif.read(result.jpeg) == ExifMetadata())
        #expect(!Self.contains(result.jpeg, "Exif"))
        #expect(!Self.contains(result.jpeg, "SecretCam"))
        #expect(!Self.contains(result.jpeg, "ICC_PROFILE"))
        #expect(!Self.contains(result.jpeg, "private"))
    }

    @Test("the output has a JFIF APP0 and no APP1, APP2 or COM segments")
    func noMetadataSegments() throws {
        let result = try ImagePipeline.process(try Self.taggedJPEG(littleEndian: true))

        let markers = JPEGMarkers.header(result.jpeg)

        #expect(markers.first == 0xE0)
        #expect(!markers.contains(0xE1) && !markers.contains(0xE2) && !markers.contains(0xFE))
        #expect(markers.allSatisfy { $0 == 0xE0 || !(0xE1...0xEF).contains($0) })
        #expect(markers.last == 0xDA)
    }
}
