import ImageFixtures
import Imaging
import Testing

struct RobustnessTests {
    /// A deterministic byte generator, so failures reproduce.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
    }

    @Test("garbage, empty and magic-only inputs throw ImagingError")
    func garbage() {
        var generator = Generator(state: 42)
        let noise = (0..<4096).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let inputs: [[UInt8]] = [
            [], [0xFF], [0xFF, 0xD8, 0xFF], [0xFF, 0xD8, 0xFF] + noise,
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + noise, noise, Array("<svg></svg>".utf8),
        ]
        for input in inputs {
            #expect(throws: ImagingError.self) { try Imaging.decode(input) }
            #expect(throws: ImagingError.self) { try Imaging.readInfo(input) }
        }
    }

    @Test("a JPEG truncated anywhere throws a corrupt-data error")
    func truncatedJPEG() throws {
        let jpeg = try Imaging.encodeJPEG(TestImages.checker(width: 64, height: 48, cell: 5), quality: 80)

        for cut in Swift.stride(from: 3, to: jpeg.count - 2, by: max(1, jpeg.count / 40)) {
            let error = #expect(throws: ImagingError.self, "cut at \(cut)") { try Imaging.decode(Array(jpeg[..<cut])) }
            #expect(error?.kind == .corrupt)
            #expect(error?.format == .jpeg && error?.description.hasPrefix("This JPEG is damaged") == true)
        }
    }

    @Test("a PNG truncated anywhere before the end of its image data throws a corrupt-data error")
    func truncatedPNG() {
        let rows = (0..<16).map { y in (0..<48).map { UInt8(($0 * 5 + y * 3) & 0xFF) } }
        let png = PNGBuilder.png(width: 16, height: 16, colorType: .rgb, rows: rows)
        let endOfImageData = png.count - 12  // IEND is 12 bytes

        for cut in 8..<endOfImageData {
            let error = #expect(throws: ImagingError.self, "cut at \(cut)") { try Imaging.decode(Array(png[..<cut])) }
            #expect(error?.kind == .corrupt)
        }
    }

    @Test("a PNG with a damaged image-data checksum is refused")
    func badPNGChecksum() {
        var png = PNGBuilder.png(width: 2, height: 1, colorType: .gray, rows: [[10, 20]])
        png[png.count - 13] ^= 0xFF  // last byte of the IDAT CRC

        let error = #expect(throws: ImagingError.self) { try Imaging.decode(png) }
        #expect(error?.format == .png && error?.description.hasPrefix("This PNG is damaged") == true)
    }

    @Test("a PNG declaring zero width is refused")
    func zeroWidthPNG() {
        let png = PNGBuilder.headerOnly(width: 0, height: 10)

        let error = #expect(throws: ImagingError.self) { try Imaging.readInfo(png) }
        #expect(error?.kind == .corrupt)
    }

    @Test("JPEGs with bytes flipped in the scan data either decode at the header size or throw")
    func flippedJPEGBytes() throws {
        let jpeg = try Imaging.encodeJPEG(TestImages.checker(width: 64, height: 48, cell: 5), quality: 80)
        let scan = try #require(markerOffset(0xDA, in: jpeg)) + 14
        var generator = Generator(state: 7)

        for _ in 0..<60 {
            var damaged = jpeg
            for _ in 0..<3 {
                let position = scan + Int(generator.next() % UInt64(jpeg.count - 2 - scan))
                damaged[position] = UInt8(truncatingIfNeeded: generator.next())
            }
            do {
                let image = try Imaging.decode(damaged)
                #expect(image.width == 64 && image.height == 48)
            } catch {
                #expect(error.kind == .corrupt)
            }
        }
    }

    @Test("PNGs with bytes flipped anywhere after the signature decode at the header size or throw")
    func flippedPNGBytes() {
        let rows = (0..<8).map { y in (0..<24).map { UInt8(($0 * 7 + y) & 0xFF) } }
        let png = PNGBuilder.png(width: 8, height: 8, colorType: .rgb, rows: rows)
        var generator = Generator(state: 99)

        for _ in 0..<200 {
            var damaged = png
            let position = 8 + Int(generator.next() % UInt64(png.count - 8))
            damaged[position] = UInt8(truncatingIfNeeded: generator.next())
            do {
                let image = try Imaging.decode(damaged)
                #expect(image.pixels.count == image.width * image.height * 3)
            } catch {
                #expect(error.kind == .corrupt || error.kind == .tooLarge)
            }
        }
    }
}
