import Imaging

/// Test photos with an EXIF block (big-endian TIFF) carrying an orientation and a GPS position.
enum ExifJPEG {
    static func make(width: Int, height: Int, orientation: Int, latitude: Double, longitude: Double) throws -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                pixels[i] = UInt8(x * 255 / max(1, width - 1))
                pixels[i + 1] = UInt8((x * 7 + y * 13) % 256)
                pixels[i + 2] = UInt8(y * 255 / max(1, height - 1))
            }
        }
        let jpeg = try Imaging.encodeJPEG(RGBImage(width: width, height: height, pixels: pixels), quality: 95)
        let tiff = tiffBlock(orientation: orientation, latitude: latitude, longitude: longitude)
        let length = 2 + 6 + tiff.count
        let app1: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + Array("Exif".utf8) + [0, 0] + tiff
        return Array(jpeg[0..<2]) + app1 + Array(jpeg[2...])
    }

    static func tiffBlock(orientation: Int, latitude: Double, longitude: Double) -> [UInt8] {
        var out: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8]
        func u16(_ v: Int) { out += [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) { out += [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func entry(_ tag: Int, _ type: Int, _ count: Int, _ value: [UInt8]) { u16(tag); u16(type); u32(count); out += value }
        func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        // IFD0 at 8: Orientation and the GPS IFD pointer (38).
        u16(2)
        entry(0x0112, 3, 1, [0, UInt8(orientation), 0, 0])
        entry(0x8825, 4, 1, be32(38))
        u32(0)
        // GPS IFD at 38: refs inline, rationals at 92 and 116.
        u16(4)
        entry(1, 2, 2, Array((latitude >= 0 ? "N" : "S").utf8) + [0, 0, 0])
        entry(2, 5, 3, be32(92))
        entry(3, 2, 2, Array((longitude >= 0 ? "E" : "W").utf8) + [0, 0, 0])
        entry(4, 5, 3, be32(116))
        u32(0)
        for value in [abs(latitude), abs(longitude)] {
            let degrees = Int(value), minutesFull = (value - Double(degrees)) * 60
            let minutes = Int(minutesFull), seconds = Int(((minutesFull - Double(minutes)) * 60 * 10000).rounded())
            for (n, d) in [(degrees, 1), (minutes, 1), (seconds, 10000)] { u32(n); u32(d) }
        }
        return out
    }
}
