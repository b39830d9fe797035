import FuzzSupport
import Imaging

/// Properties every image decoder must keep on hostile input, whatever the format (JPEG, PNG, HEIC, AVIF, WebP).
public enum DecoderProperties {
    /// Small enough that a hostile header cannot make one run allocate or decode much (256×256).
    public static let maxPixels = 65_536

    /// Checks, on one input:
    /// - `Imaging.readInfo` (the header check that runs before any decoding) and `Imaging.decode` never trap;
    /// - whatever the header check refuses, decoding refuses too;
    /// - a header over the pixel limit is refused as `.tooLarge` before decoding;
    /// - a decoded image has the header's size and exactly width × height × 3 samples;
    /// - a reduced-size decode (`atLeast`) gives a size between `atLeast` and the header's size;
    /// - the whole pipeline with the same pixel limit either refuses with a sentence or publishes a JPEG within
    ///   its byte limit that carries no EXIF.
    public static func check(_ input: [UInt8]) {
        let info: ImageInfo
        do {
            info = try Imaging.readInfo(input)
        } catch {
            Fuzz.require(
                (try? Imaging.decode(input, maxPixels: maxPixels)) == nil,
                "decoded what readInfo refused: \(error)"
            )
            Fuzz.require(error.description.hasSuffix("."), "error is not a sentence: \(error.description)")
            return
        }
        Fuzz.require(info.width > 0 && info.height > 0, "header size \(info.width)×\(info.height)")
        Fuzz.require(info.format == Imaging.sniff(input), "readInfo says \(info.format), sniff disagrees")

        let image: RGBImage
        do {
            image = try Imaging.decode(input, maxPixels: maxPixels)
        } catch {
            let overLimit =
                info.width.multipliedReportingOverflow(by: info.height).overflow || info.pixelCount > maxPixels
            Fuzz.require(!overLimit || error.kind == .tooLarge, "an oversized header failed as \(error.kind): \(error)")
            Fuzz.require(error.format == nil || error.format == info.format, "error names \(String(describing: error.format))")
            return
        }
        Fuzz.require(info.pixelCount <= maxPixels, "decoded \(info.width)×\(info.height) over the limit")
        Fuzz.require(
            image.width == info.width && image.height == info.height
                && image.pixels.count == image.width * image.height * 3,
            "decoded \(image.width)×\(image.height) with \(image.pixels.count) samples, header \(info.width)×\(info.height)"
        )

        let atLeast = (width: max(1, info.width / 3), height: max(1, info.height / 3))
        guard let scaled = try? Imaging.decode(input, maxPixels: maxPixels, atLeast: atLeast) else {
            Fuzz.fail("full-size decode worked but the reduced one failed")
        }
        Fuzz.require(
            (atLeast.width...info.width).contains(scaled.width) && (atLeast.height...info.height).contains(scaled.height)
                && scaled.pixels.count == scaled.width * scaled.height * 3,
            "scaled to \(scaled.width)×\(scaled.height) for at least \(atLeast), header \(info.width)×\(info.height)"
        )

        var options = PipelineOptions()
        options.maxPixels = maxPixels
        options.maxEdge = 128
        options.concurrentEncodes = false
        guard let processed = try? ImagePipeline.process(input, options: options) else { return }
        Fuzz.require(processed.jpeg.count <= options.maxBytes, "published \(processed.jpeg.count) bytes")
        Fuzz.require(max(processed.width, processed.height) <= options.maxEdge, "published \(processed.width)×\(processed.height)")
        Fuzz.require(Exif.read(processed.jpeg) == ExifMetadata(), "published EXIF")
        Fuzz.require((try? Imaging.decode(processed.jpeg))?.width == processed.width, "published JPEG does not decode")
    }
}
