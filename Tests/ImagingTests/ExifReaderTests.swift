import ImageFixtures
import Imaging
import Testing

struct ExifReaderTests {
    static let paris = GPSCoordinate(latitude: 48.858_4, longitude: 2.294_5)

    static func close(_ a: GPSCoordinate?, _ b: GPSCoordinate) -> Bool {
        guard let a else { return false }
        // Hundredths of a second of arc are about 0.3 m; the builder rounds to them.
        return abs(a.latitude - b.latitude) < 1e-6 && abs(a.longitude - b.longitude) < 1e-6
    }

    @Test("every field is read from a JPEG in both byte orders", arguments: [true, false])
    func allFields(littleEndian: Bool) throws {
        // setup
        let builder = ExifBuilder(littleEndian: littleEndian)
        let tiff = builder.fields(
            orientation: 6,
            gps: Self.paris,
            date: "2024:05:01 13:45:10",
            make: "Grain",
            model: "Test Cam 2"
        )
        let jpeg = try ExifBuilder.jpeg(tiff)

        // MUT
        let metadata = Exif.read(jpeg)

        // validate
        #expect(metadata.orientation == 6)
        #expect(Self.close(metadata.gps, Self.paris), "\(String(describing: metadata.gps))")
        #expect(metadata.dateTimeOriginal == "2024:05:01 13:45:10")
        #expect(metadata.make == "Grain")
        #expect(metadata.model == "Test Cam 2")
    }

    @Test("southern and western coordinates come out negative", arguments: [true, false])
    func southWest(littleEndian: Bool) throws {
        let santiago = GPSCoordinate(latitude: -33.448_9, longitude: -70.669_3)
        let jpeg = try ExifBuilder.jpeg(ExifBuilder(littleEndian: littleEndian).fields(gps: santiago))

        let metadata = Exif.read(jpeg)

        #expect(Self.close(metadata.gps, santiago), "\(String(describing: metadata.gps))")
        #expect(metadata.orientation == nil && metadata.make == nil)
    }

    @Test("a PNG eXIf chunk is read like a JPEG's APP1")
    func pngChunk() {
        let plain = PNGBuilder.png(width: 1, height: 1, colorType: .rgb, rows: [[1, 2, 3]])
        let png = ExifBuilder.png(ExifBuilder(littleEndian: false).fields(orientation: 3, make: "PNGCam"), into: plain)

        let metadata = Exif.read(png)

        #expect(metadata == ExifMetadata(orientation: 3, make: "PNGCam"))
    }

    @Test("an XMP APP1 before the EXIF APP1 is skipped")
    func skipsXMP() throws {
        let xmpPayload = Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>".utf8)
        let xmp = [0xFF, 0xE1, 0, UInt8(xmpPayload.count + 2)] + xmpPayload
        let exif = ExifBuilder.app1(ExifBuilder().fields(orientation: 8))
        let plain = try Imaging.encodeJPEG(TestImages.gradient(width: 8, height: 8), quality: 80)

        let metadata = Exif.read(ExifBuilder.splice(xmp + exif, into: plain))

        #expect(metadata.orientation == 8)
    }

    @Test("files without EXIF, and non-images, give empty metadata")
    func noExif() throws {
        let plain = try Imaging.encodeJPEG(TestImages.gradient(width: 8, height: 8), quality: 80)

        #expect(Exif.read(plain) == ExifMetadata())
        #expect(Exif.read(PNGBuilder.png(width: 1, height: 1, colorType: .rgb, rows: [[1, 2, 3]])) == ExifMetadata())
        #expect(Exif.read(Array("GIF89a".utf8)) == ExifMetadata())
        #expect(Exif.read([]) == ExifMetadata())
    }

    @Test("orientation outside 1–8 is dropped while other fields survive")
    func badOrientation() throws {
        let jpeg = try ExifBuilder.jpeg(ExifBuilder().fields(orientation: 9, make: "Grain"))

        #expect(Exif.read(jpeg) == ExifMetadata(make: "Grain"))
    }

    @Test("out-of-range coordinates give no GPS", arguments: [(91.0, 10.0), (10.0, 181.0), (-90.5, -10.0)])
    func outOfRange(latitude: Double, longitude: Double) throws {
        let tiff = ExifBuilder().fields(gps: GPSCoordinate(latitude: latitude, longitude: longitude), make: "Grain")

        let metadata = Exif.read(try ExifBuilder.jpeg(tiff))

        #expect(metadata.gps == nil)
        #expect(metadata.make == "Grain")
    }

    @Test("a zero denominator or an unknown reference letter gives no GPS")
    func badRationals() throws {
        let b = ExifBuilder()
        let zero = b.tiff(
            ifd0: [b.short(0x0112, 2)],
            gps: [b.ascii(1, "N"), b.rationals(2, [(48, 1), (0, 0), (0, 1)]), b.ascii(3, "E"), b.degrees(4, 2)]
        )
        let badRef = b.tiff(
            ifd0: [b.short(0x0112, 2)],
            gps: [b.ascii(1, "Q"), b.degrees(2, 48), b.ascii(3, "E"), b.degrees(4, 2)]
        )

        #expect(Exif.read(try ExifBuilder.jpeg(zero)) == ExifMetadata(orientation: 2))
        #expect(Exif.read(try ExifBuilder.jpeg(badRef)) == ExifMetadata(orientation: 2))
    }

    @Test("sub-IFD pointers that loop back are read once and the walk ends", arguments: [true, false])
    func ifdLoop(littleEndian: Bool) throws {
        let b = ExifBuilder(littleEndian: littleEndian)
        // Both pointers aim at IFD0 itself (offset 8).
        let tiff = b.tiff(ifd0: [b.ascii(0x010F, "Loop"), b.short(0x0112, 5), b.long(0x8769, 8), b.long(0x8825, 8)])

        #expect(Exif.read(try ExifBuilder.jpeg(tiff)) == ExifMetadata(orientation: 5, make: "Loop"))
    }

    @Test("absurd counts and offsets past the end drop only their own fields")
    func absurdCountsAndOffsets() throws {
        let b = ExifBuilder()
        var hugeMake = b.ascii(0x010F, "Grain")
        hugeMake.count = 0xFFFF_FFFF
        var farModel = b.ascii(0x0110, "Far away")
        farModel.offset = 0x7FFF_0000
        let tiff = b.tiff(
            ifd0: [hugeMake, farModel, b.short(0x0112, 7)],
            exif: [b.ascii(0x9003, "2020:01:01 00:00:00")]
        )

        #expect(
            Exif.read(try ExifBuilder.jpeg(tiff))
                == ExifMetadata(orientation: 7, dateTimeOriginal: "2020:01:01 00:00:00")
        )
    }

    @Test("an IFD claiming more entries than the data holds yields nothing")
    func absurdEntryCount() throws {
        var tiff = ExifBuilder().fields(orientation: 6, make: "Grain")
        tiff[8] = 0xFF
        tiff[9] = 0xFF

        #expect(Exif.read(try ExifBuilder.jpeg(tiff)) == ExifMetadata())
    }

    @Test("an APP1 segment whose length runs past the file is ignored")
    func segmentPastEnd() throws {
        var jpeg = try ExifBuilder.jpeg(ExifBuilder().fields(orientation: 6))
        let app1 = try #require(jpeg.indices.first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xE1 })
        jpeg[app1 + 2] = 0xFF
        jpeg[app1 + 3] = 0xFF

        #expect(Exif.read(Array(jpeg.prefix(app1 + 200))) == ExifMetadata())
    }
}
