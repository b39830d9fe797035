import FuzzSupport
import Imaging

/// Small enough that a hostile header cannot make one run allocate or decode much (256×256).
let maxPixels = 65_536

// Input: an encoded image (JPEG is the target; PNG input exercises the shared header path too).
//
// Properties:
// - `Imaging.readInfo` (the header check that runs before any decoding) and `Imaging.decode` never trap;
// - a header over the pixel limit is refused as `.tooLarge` before decoding;
// - a decoded image has the header's size and exactly width × height × 3 samples;
// - decoding with `atLeast` (DCT scaling) gives a size between `atLeast` and the header's size.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = Fuzz.bytes(data, size)
    let info: ImageInfo
    do {
        info = try Imaging.readInfo(input)
    } catch {
        // Whatever the header check refuses, decoding must refuse too.
        Fuzz.require(
            (try? Imaging.decode(input, maxPixels: maxPixels)) == nil,
            "decoded what readInfo refused: \(error)"
        )
        return 0
    }
    Fuzz.require(info.width > 0 && info.height > 0, "header size \(info.width)×\(info.height)")
    Fuzz.require(info.format == Imaging.sniff(input), "readInfo says \(info.format), sniff disagrees")

    let image: RGBImage
    do {
        image = try Imaging.decode(input, maxPixels: maxPixels)
    } catch {
        let overLimit = info.width.multipliedReportingOverflow(by: info.height).overflow || info.pixelCount > maxPixels
        Fuzz.require(!overLimit || error.kind == .tooLarge, "an oversized header failed as \(error.kind): \(error)")
        return 0
    }
    Fuzz.require(info.pixelCount <= maxPixels, "decoded \(info.width)×\(info.height) over the limit")
    Fuzz.require(
        image.width == info.width && image.height == info.height
            && image.pixels.count == image.width * image.height * 3,
        "decoded \(image.width)×\(image.height) with \(image.pixels.count) samples, header \(info.width)×\(info.height)"
    )

    guard info.format == .jpeg else { return 0 }
    let atLeast = (width: max(1, info.width / 3), height: max(1, info.height / 3))
    guard let scaled = try? Imaging.decode(input, maxPixels: maxPixels, atLeast: atLeast) else {
        Fuzz.fail("full-size decode worked but the DCT-scaled one failed")
    }
    Fuzz.require(
        (atLeast.width...info.width).contains(scaled.width) && (atLeast.height...info.height).contains(scaled.height)
            && scaled.pixels.count == scaled.width * scaled.height * 3,
        "scaled to \(scaled.width)×\(scaled.height) for at least \(atLeast), header \(info.width)×\(info.height)"
    )
    return 0
}
