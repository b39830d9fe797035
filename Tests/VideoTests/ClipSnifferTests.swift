import Testing

@testable import Video

@Suite struct ClipSnifferTests {
    static func box(_ type: String, brand: String) -> [UInt8] { [0, 0, 0, 24] + Array(type.utf8) + Array(brand.utf8) + [0, 0, 0, 0] }

    @Test func phoneAndBrowserRecordingsAreClips() {
        #expect(ClipSniffer.isClip(Self.box("ftyp", brand: "isom")))
        #expect(ClipSniffer.isClip(Self.box("ftyp", brand: "qt  ")))
        #expect(ClipSniffer.isClip(Self.box("ftyp", brand: "mp42")))
        #expect(ClipSniffer.isClip([0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 1, 0, 0, 0]))
        #expect(ClipSniffer.isClip(Self.box("wide", brand: "\0\0\0\0")))
    }

    @Test func stillImagesInTheSameContainerAreNot() {
        #expect(!ClipSniffer.isClip(Self.box("ftyp", brand: "heic")))
        #expect(!ClipSniffer.isClip(Self.box("ftyp", brand: "avif")))
        #expect(!ClipSniffer.isClip([0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 0x4A, 0x46, 0x49, 0x46, 0, 1]))
        #expect(!ClipSniffer.isClip([0x1A, 0x45]))
    }
}
