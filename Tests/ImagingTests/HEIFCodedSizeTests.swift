import ImageFixtures
import Imaging
import Testing

/// HEIC and AVIF files whose coded pictures are larger than their boxes declare (issue 25, N1): each is refused
/// from the coded stream's own header, before libheif decodes it, naming both sizes.
struct HEIFCodedSizeTests {
    /// Made once per run: encoding takes a second or two each.
    static let heicBomb = Result { try TestImages.codedBomb(side: 4096, declared: 64) }
    static let avifBomb = Result { try TestImages.codedBomb(side: 8192, declared: 64, avif: true) }
    static let gridTileBomb = Result { try TestImages.gridBomb(side: 2047, declared: 64, tile: true) }
    static let gridOutputBomb = Result { try TestImages.gridBomb(side: 2047, declared: 64, tile: false) }

    /// "4,096": how the messages group digits.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        return digits.enumerated().map { index, digit in
            index > 0 && (digits.count - index) % 3 == 0 ? ",\(digit)" : "\(digit)"
        }.joined()
    }

    static func refusal(_ format: String, _ part: String, _ bomb: TestImages.CodedBomb) -> String {
        "This \(format)'s \(part) is \(grouped(bomb.coded.width)) × \(grouped(bomb.coded.height)) pixels, larger than the "
            + "\(grouped(bomb.declared.width)) × \(grouped(bomb.declared.height)) its header declares. Try exporting the photo again."
    }

    @Test("a HEIC whose HEVC stream is coded larger than its ispe is refused as too large, naming both sizes")
    func codedSizeLargerThanIspeIsRefused() throws {
        let bomb = try Self.heicBomb.get()

        let error = #expect(throws: ImagingError.self) { try ImagePipeline.process(bomb.bytes) }

        #expect(error?.kind == .tooLarge && error?.format == .heic)
        #expect(error?.description == Self.refusal("HEIC", "image data", bomb))
    }

    @Test("an AVIF whose AV1 sequence header is larger than its ispe is refused as too large, naming both sizes")
    func av1SequenceHeaderLargerThanIspeIsRefused() throws {
        let bomb = try Self.avifBomb.get()

        let error = #expect(throws: ImagingError.self) { try ImagePipeline.process(bomb.bytes) }

        #expect(error?.kind == .tooLarge && error?.format == .avif)
        #expect(error?.description == Self.refusal("AVIF", "image data", bomb))
    }

    @Test("readInfo, which has no pixel limit, still refuses a coded size larger than the ispe")
    func readInfoRefusesCodedSizeLargerThanIspe() throws {
        let bomb = try Self.avifBomb.get()

        let error = #expect(throws: ImagingError.self) { try Imaging.readInfo(bomb.bytes) }

        #expect(error?.kind == .tooLarge)
        #expect(error?.description == Self.refusal("AVIF", "image data", bomb))
    }

    @Test("a grid whose tile is coded larger than the tile's ispe is refused, naming the tile's sizes")
    func gridTileLargerThanItsIspeIsRefused() throws {
        let bomb = try Self.gridTileBomb.get()

        let error = #expect(throws: ImagingError.self) { try ImagePipeline.process(bomb.bytes) }

        #expect(error?.kind == .tooLarge && error?.format == .heic)
        #expect(error?.description == Self.refusal("HEIC", "tile", bomb))
    }

    @Test("a grid whose own description is larger than its ispe is refused, naming the grid's sizes")
    func gridOutputLargerThanIspeIsRefused() throws {
        let bomb = try Self.gridOutputBomb.get()

        let error = #expect(throws: ImagingError.self) { try ImagePipeline.process(bomb.bytes) }

        #expect(error?.kind == .tooLarge && error?.format == .heic)
        #expect(error?.description == Self.refusal("HEIC", "grid", bomb))
    }

    @Test("the same files read from disk (libheif reads the file itself) are refused the same way")
    func bombOnDiskIsRefused() throws {
        let fixtures = try FixtureDirectory()
        let bomb = try Self.heicBomb.get()
        let path = try fixtures.write("bomb.heic", bomb.bytes)

        let error = #expect(throws: ImagingError.self) { try ImagePipeline.process(fileAt: path) }

        #expect(error?.description == Self.refusal("HEIC", "image data", bomb))
    }
}

extension HEIFCodedSizeTests {
    /// A file as an encoder writes it, from an RGBA picture.
    struct Encoding: CustomTestStringConvertible, Sendable {
        let name: String
        let tool: String
        let options: [String]
        let suffix: String
        let width: Int
        let height: Int
        var testDescription: String { name }
    }

    static let encodings = [
        Encoding(name: "HEIC, odd size (a 1×1 grid), alpha", tool: "heif-enc", options: ["-q", "50"], suffix: "heic", width: 641, height: 479),
        Encoding(name: "HEIC, single image, alpha", tool: "heif-enc", options: ["-q", "50"], suffix: "heic", width: 640, height: 480),
        Encoding(name: "AVIF, odd size, alpha", tool: "avifenc", options: ["-s", "10"], suffix: "avif", width: 641, height: 479),
        Encoding(name: "AVIF, rotated", tool: "avifenc", options: ["-s", "10", "--irot", "1"], suffix: "avif", width: 640, height: 480),
    ]

    @Test("files as encoders write them still decode: single images, grids, alpha, rotation", arguments: encodings)
    func encodedFilesStillDecode(_ encoding: Encoding) throws {
        let fixtures = try FixtureDirectory()
        var rows: [[UInt8]] = []
        for y in 0..<encoding.height {
            var row: [UInt8] = []
            for x in 0..<encoding.width { row += [UInt8(x & 0xFF), UInt8(y & 0xFF), 128, UInt8((x + y) & 0xFF)] }
            rows.append(row)
        }
        try fixtures.write("in.png", PNGBuilder.png(width: encoding.width, height: encoding.height, colorType: .rgba, rows: rows))
        let output = "out.\(encoding.suffix)"
        let files = encoding.tool == "heif-enc" ? ["in.png", "-o", output] : ["in.png", output]
        try fixtures.run(encoding.tool, encoding.options + files)

        let image = try Imaging.decode(fixtures.read(output))

        let turned = encoding.options.contains("--irot")
        #expect(image.width == (turned ? encoding.height : encoding.width))
        #expect(image.height == (turned ? encoding.width : encoding.height))
    }
}
