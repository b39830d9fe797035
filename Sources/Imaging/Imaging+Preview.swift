/// Renditions of a story photo made for others to look at before (or instead of) the photo itself: the link
/// preview a chat app or social site shows for a permalink, and the blurred stand-in of a photo behind a content
/// warning, which must not give the photo away.
extension Imaging {
    /// How many pixels the long side of a blurred rendition keeps before it is scaled back up: few enough that no
    /// detail survives, enough for the colours to show where they are.
    public static let blurDetail = 16

    /// A link preview of exactly `width × height` (Grain's: 1200 × 630): the photo fitted in the middle over a blurred,
    /// cover-cropped copy of itself; with `blurred`, only the blurred copy, so nothing of the photo can be made out.
    /// - Parameters:
    ///   - bytes: a JPEG or PNG within the default pixel limit.
    ///   - quality: JPEG quality 1–100.
    public static func linkPreview(
        of bytes: [UInt8], width: Int = 1200, height: Int = 630, blurred: Bool, quality: Int = 82
    ) throws(ImagingError) -> [UInt8] {
        guard width > 0, height > 0 else { throw .invalidArgument("cannot make a \(width)×\(height) preview") }
        let info = try readInfo(bytes)
        let contained = fittedSize(width: info.width, height: info.height, maxWidth: width, maxHeight: height)
        let photo = try decode(bytes, atLeast: blurred ? (1, 1) : contained)
        var canvas = blur(photo.coverCropped(width: width, height: height), detail: blurDetail)
        if !blurred {
            let inner = photo.resized(width: contained.width, height: contained.height)
            canvas.paste(inner, x: (width - inner.width) / 2, y: (height - inner.height) / 2)
        }
        return try encodeJPEG(canvas, quality: quality)
    }

    /// A stand-in for a photo behind a content warning: at most `maxEdge` pixels on its long side, with the photo's
    /// aspect ratio, and blurred past recognition (the browser scales it up).
    public static func blurredPlaceholder(of bytes: [UInt8], maxEdge: Int = 64, quality: Int = 70) throws(ImagingError) -> Thumbnail {
        guard maxEdge > 0 else { throw .invalidArgument("maxEdge must be positive, not \(maxEdge)") }
        let info = try readInfo(bytes)
        let size = fittedSize(width: info.width, height: info.height, maxWidth: maxEdge, maxHeight: maxEdge)
        let photo = try decode(bytes, atLeast: (1, 1)).resized(width: size.width, height: size.height)
        let image = blur(photo, detail: min(blurDetail, maxEdge))
        return Thumbnail(jpeg: try encodeJPEG(image, quality: quality), width: image.width, height: image.height)
    }

    /// `image` shrunk until its long side is `detail` pixels, scaled back to its size and softened, so only its
    /// colours remain. The softening runs at no more than eight times `detail` (a smooth image stays smooth when
    /// enlarged), so a 1200-pixel preview costs little more than a thumbnail.
    static func blur(_ image: RGBImage, detail: Int) -> RGBImage {
        let small = image.resizedToFit(maxWidth: detail, maxHeight: detail)
        let middle = fittedSize(width: image.width, height: image.height, maxWidth: detail * 8, maxHeight: detail * 8)
        var soft = small.resized(width: middle.width, height: middle.height)
        // Three box passes approach a Gaussian and smooth the resampler's ringing away.
        let radius = max(1, max(middle.width, middle.height) / (detail * 2))
        for _ in 0..<3 { soft.boxBlur(radius: radius) }
        return soft.resized(width: image.width, height: image.height)
    }
}

extension RGBImage {
    /// The largest centred region with the aspect ratio of `width × height`, resized to exactly that.
    public func coverCropped(width: Int, height: Int) -> RGBImage {
        precondition(width > 0 && height > 0, "cannot cover \(width)×\(height)")
        // Compare self.width / self.height with width / height without rounding.
        let (cropWidth, cropHeight) =
            self.width * height > self.height * width
            ? (max(1, self.height * width / height), self.height) : (self.width, max(1, self.width * height / width))
        return cropped(x: (self.width - cropWidth) / 2, y: (self.height - cropHeight) / 2, width: cropWidth, height: cropHeight)
            .resized(width: width, height: height)
    }

    /// Copies `other` over this image with its top-left corner at (`x`, `y`); what falls outside is dropped.
    mutating func paste(_ other: RGBImage, x: Int, y: Int) {
        let left = max(0, x)
        let right = min(width, x + other.width)
        guard left < right else { return }
        for row in max(0, y)..<min(height, y + other.height) {
            let source = ((row - y) * other.width + (left - x)) * 3
            let target = (row * width + left) * 3
            let count = (right - left) * 3
            pixels.replaceSubrange(target..<target + count, with: other.pixels[source..<source + count])
        }
    }

    /// One horizontal and one vertical pass of a box filter of `radius` (edges repeat), with running sums.
    mutating func boxBlur(radius: Int) {
        guard width > 1 || height > 1 else { return }
        pixels = Self.boxPass(pixels, count: width, lines: height, step: 3, lineStride: width * 3, radius: radius)
        pixels = Self.boxPass(pixels, count: height, lines: width, step: width * 3, lineStride: 3, radius: radius)
    }

    /// Box-filters `lines` lines of `count` pixels each; pixel `i` of line `l` starts at `l * lineStride + i * step`.
    static func boxPass(_ input: [UInt8], count: Int, lines: Int, step: Int, lineStride: Int, radius: Int) -> [UInt8] {
        var output = input
        let window = 2 * radius + 1
        input.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                for line in 0..<lines {
                    for channel in 0..<3 {
                        let base = line * lineStride + channel
                        // Samples past either end repeat the edge pixel.
                        let first = Int(source[base]), last = Int(source[base + (count - 1) * step])
                        var sum = 0
                        for i in -radius...radius { sum += i < 0 ? first : i >= count ? last : Int(source[base + i * step]) }
                        for i in 0..<count {
                            target[base + i * step] = UInt8(sum / window)
                            let incoming = i + radius + 1, outgoing = i - radius
                            sum +=
                                (incoming >= count ? last : Int(source[base + incoming * step]))
                                - (outgoing < 0 ? first : Int(source[base + outgoing * step]))
                        }
                    }
                }
            }
        }
        return output
    }
}
