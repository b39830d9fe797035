import Foundation
import Imaging
import QRCode
import Testing

/// QR codes from libqrencode, read back by a real decoder: Debian's zbarimg (zbar-tools, installed by `make test`).
struct QRCodeTests {
    /// The code drawn as pixels (`scale` per module, white quiet zone), the way a screen shows it.
    static func image(_ code: QRCode, scale: Int = 8) -> RGBImage {
        let side = (code.size + 8) * scale
        var pixels = [UInt8](repeating: 255, count: side * side * 3)
        for y in 0..<side {
            for x in 0..<side {
                let mx = x / scale - 4
                let my = y / scale - 4
                guard mx >= 0, my >= 0, mx < code.size, my < code.size, code.isDark(x: mx, y: my) else { continue }
                let i = (y * side + x) * 3
                pixels[i] = 0
                pixels[i + 1] = 0
                pixels[i + 2] = 0
            }
        }
        return RGBImage(width: side, height: side, pixels: pixels)
    }

    /// What zbarimg reads from the image.
    static func decode(_ image: RGBImage) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString).jpg")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(try Imaging.encodeJPEG(image, quality: 95, subsampling420: false)).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zbarimg")
        process.arguments = ["--raw", "--quiet", "-Sdisable", "-Sqrcode.enable", file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    /// Our codes hold URLs, ASCII once percent-encoded (byte mode without an ECI header, which decoders read as ASCII).
    @Test("a permalink's and a kiosk address's codes decode to exactly that address")
    func decodesToItsText() throws {
        for text in [
            "http://box.local:8080/profile/did:plc:abcdefghijklmnopqrstuvwx/story/3kabcdefgh2aa",
            "https://stories.example/kiosk?memories=1&night=22:00-07:00&authors=in%C3%AAs.home.test",
            "http://192.168.1.20:8080/profile/did:plc:m/story/3k",
        ] {
            let code = try QRCode(text)
            #expect(code.size >= 21 && (code.size - 17) % 4 == 0, "a QR version's size")
            #expect(try Self.decode(Self.image(code)) == text, "\(text)")
        }
    }

    @Test("the SVG is one path of the dark modules on a white square with a quiet zone, its title escaped")
    func svg() throws {
        let code = try QRCode("http://box.local/x")
        let svg = code.svg(title: "Open <this> & that")
        let side = code.size + 8
        #expect(svg.hasPrefix(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \#(side) \#(side)""#))
        #expect(svg.contains("<title>Open &lt;this&gt; &amp; that</title>"))
        #expect(svg.contains(##"<rect width="\##(side)" height="\##(side)" fill="#fff"/>"##))
        // The finder pattern's top row: seven dark modules from the quiet zone's edge.
        #expect(svg.contains("M4 4h7v1h-7z"))
        let squares = svg.components(separatedBy: "h").count - 1
        #expect(squares > 0 && squares < code.modules.filter { $0 }.count, "runs of modules, not one square each")
    }

    @Test("empty, oversized and NUL-carrying texts are refused")
    func refusals() {
        #expect(throws: QRCode.EncodingError.self) { try QRCode("") }
        #expect(throws: QRCode.EncodingError.self) { try QRCode(String(repeating: "a", count: 1025)) }
        #expect(throws: QRCode.EncodingError.self) { try QRCode("a\u{0}b") }
    }
}
