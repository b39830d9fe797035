import ImageFixtures
import Imaging

/// Test photos as a phone saves them: EXIF (big-endian, as many cameras write it) with an orientation and a GPS
/// position, over a gradient with a fine pattern in green so they compress like a photo rather than a flat fill.
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
        let exif = ExifBuilder(littleEndian: false).fields(
            orientation: orientation, gps: GPSCoordinate(latitude: latitude, longitude: longitude))
        return ExifBuilder.splice(ExifBuilder.app1(exif), into: jpeg)
    }
}
