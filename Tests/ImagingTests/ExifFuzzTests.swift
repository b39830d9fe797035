import ImageFixtures
import Imaging
import Testing

/// Malformed EXIF must never crash the reader nor invent values: every field read is either absent or the value
/// that was written.
struct ExifFuzzTests {
    static let written = ExifMetadata(
        orientation: 6,
        gps: GPSCoordinate(latitude: -33.5, longitude: 151.25),
        dateTimeOriginal: "2024:05:01 13:45:10",
        make: "Grain",
        model: "Fuzz"
    )

    static func tiff(littleEndian: Bool) -> [UInt8] {
        let w = written
        return ExifBuilder(littleEndian: littleEndian).fields(
            orientation: w.orientation,
            gps: w.gps,
            date: w.dateTimeOriginal,
            make: w.make,
            model: w.model
        )
    }

    /// Each field is nil or what was written.
    static func isPartial(_ metadata: ExifMetadata) -> Bool {
        (metadata.orientation == nil || metadata.orientation == written.orientation)
            && (metadata.gps == nil || metadata.gps == written.gps)
            && (metadata.dateTimeOriginal == nil || metadata.dateTimeOriginal == written.dateTimeOriginal)
            && (metadata.make == nil || metadata.make == written.make)
            && (metadata.model == nil || metadata.model == written.model)
    }

    @Test("the untouched block reads back completely", arguments: [true, false])
    func baseline(littleEndian: Bool) throws {
        #expect(Exif.read(try ExifBuilder.jpeg(Self.tiff(littleEndian: littleEndian))) == Self.written)
    }

    @Test("every truncation of the TIFF block gives partial or no metadata", arguments: [true, false])
    func truncations(littleEndian: Bool) throws {
        let tiff = Self.tiff(littleEndian: littleEndian)
        let plain = try Imaging.encodeJPEG(TestImages.gradient(width: 8, height: 8), quality: 80)
        var partialCount = 0
        for length in 0..<tiff.count {
            let jpeg = ExifBuilder.splice(ExifBuilder.app1(Array(tiff.prefix(length))), into: plain)
            let metadata = Exif.read(jpeg)
            #expect(Self.isPartial(metadata), "truncated to \(length): \(metadata)")
            if metadata != ExifMetadata() && metadata != Self.written { partialCount += 1 }
            // The file itself truncated mid-segment must not trap either.
            _ = Exif.read(Array(jpeg.prefix(24 + length)))
        }
        // IFD0 comes first, so some truncations keep it and lose the sub-IFDs.
        #expect(partialCount > 0)
    }

    @Test("random byte flips never crash and keep values in range", arguments: [true, false])
    func byteFlips(littleEndian: Bool) throws {
        let tiff = Self.tiff(littleEndian: littleEndian)
        let plain = try Imaging.encodeJPEG(TestImages.gradient(width: 8, height: 8), quality: 80)
        var random = SeededRandom(state: littleEndian ? 1 : 2)
        for _ in 0..<3_000 {
            var damaged = tiff
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                damaged[Int.random(in: 0..<damaged.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            let metadata = Exif.read(ExifBuilder.splice(ExifBuilder.app1(damaged), into: plain))
            if let orientation = metadata.orientation { #expect((1...8).contains(orientation)) }
            if let gps = metadata.gps { #expect(abs(gps.latitude) <= 90 && abs(gps.longitude) <= 180) }
            for text in [metadata.make, metadata.model, metadata.dateTimeOriginal].compactMap({ $0 }) {
                #expect(!text.isEmpty && text.utf8.count <= 256 && !text.unicodeScalars.contains { $0.value < 0x20 })
            }
        }
    }

    @Test("random bytes after an Exif header never crash")
    func randomBlocks() throws {
        let plain = try Imaging.encodeJPEG(TestImages.gradient(width: 8, height: 8), quality: 80)
        var random = SeededRandom(state: 3)
        for round in 0..<1_000 {
            var block = (0..<Int.random(in: 8...300, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            // Half the rounds get a valid header so the IFD walk itself is exercised.
            if round % 2 == 0 { block.replaceSubrange(0..<8, with: [0x49, 0x49, 42, 0, 8, 0, 0, 0]) }
            _ = Exif.read(ExifBuilder.splice(ExifBuilder.app1(block), into: plain))
        }
    }
}
