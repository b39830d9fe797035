/// Decoded pixels handed over one RGB row at a time, top to bottom, so a resampler can consume an image without
/// a full-size copy of it (PNG rows come straight from libpng; the other decoders lend their own buffers).
protocol RowSource: AnyObject {
    var width: Int { get }
    var height: Int { get }
    /// The next row: `width * 3` bytes of RGB, valid until the next call. Called at most `height` times.
    func nextRow() throws(ImagingError) -> UnsafePointer<UInt8>
    /// Whether reading a row costs real work (decoding), so the resampler should read ahead on its own thread.
    var decodesAsItGoes: Bool { get }
}

extension RowSource {
    var decodesAsItGoes: Bool { false }
}

extension RowSource {
    /// Every remaining row, as one image.
    func collect() throws(ImagingError) -> RGBImage {
        let rowLength = width * 3
        var pixels = [UInt8](repeating: 0, count: rowLength * height)
        var failure: ImagingError?
        pixels.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for y in 0..<height {
                do throws(ImagingError) {
                    let row = try nextRow()
                    (base + y * rowLength).update(from: row, count: rowLength)
                } catch {
                    failure = error
                    return
                }
            }
        }
        if let failure { throw failure }
        return RGBImage(width: width, height: height, pixels: pixels)
    }
}

/// Rows read out of a decoder's buffer of RGB or RGBA with any stride; RGBA is flattened on white per row.
final class BufferRows: RowSource {
    let width: Int
    let height: Int
    private let base: UnsafePointer<UInt8>
    private let stride: Int
    private let channels: Int
    private let scratch: UnsafeMutablePointer<UInt8>?
    private var next = 0
    /// Keeps the buffer's owner (an array, a libheif image, a libwebp buffer) alive while rows are read.
    private let owner: AnyObject?

    init(width: Int, height: Int, base: UnsafePointer<UInt8>, stride: Int, channels: Int, owner: AnyObject?) {
        precondition(channels == 3 || channels == 4)
        self.width = width
        self.height = height
        self.base = base
        self.stride = stride
        self.channels = channels
        self.owner = owner
        scratch = channels == 4 ? .allocate(capacity: width * 4) : nil
    }

    deinit {
        scratch?.deallocate()
    }

    func nextRow() throws(ImagingError) -> UnsafePointer<UInt8> {
        precondition(next < height, "read past the last row")
        let row = base + next * stride
        next += 1
        guard let scratch else { return row }
        scratch.update(from: row, count: width * 4)
        ColorConversion.flattenRGBAOnWhite(UnsafeMutableBufferPointer(start: scratch, count: width * 4), pixelCount: width)
        return UnsafePointer(scratch)
    }
}

/// Rows interleaved from three planes of red, green and blue (libheif's planar RGB), one row at a time.
final class PlanarRows: RowSource {
    struct Plane {
        let base: UnsafePointer<UInt8>
        let stride: Int
    }

    let width: Int
    let height: Int
    private let planes: [Plane]
    private let row: UnsafeMutablePointer<UInt8>
    private var next = 0
    /// Keeps the planes' owner (a decoded libheif image) alive while rows are read.
    private let owner: AnyObject?

    init(width: Int, height: Int, planes: [Plane], owner: AnyObject?) {
        precondition(planes.count == 3)
        self.width = width
        self.height = height
        self.planes = planes
        self.owner = owner
        row = .allocate(capacity: width * 3)
    }

    deinit {
        row.deallocate()
    }

    func nextRow() throws(ImagingError) -> UnsafePointer<UInt8> {
        precondition(next < height, "read past the last row")
        let red = planes[0].base + next * planes[0].stride
        let green = planes[1].base + next * planes[1].stride
        let blue = planes[2].base + next * planes[2].stride
        next += 1
        var d = row
        var x = 0
        while x < width {
            d[0] = red[x]
            d[1] = green[x]
            d[2] = blue[x]
            d += 3
            x += 1
        }
        return UnsafePointer(row)
    }
}

/// A raw pixel buffer a decoder writes into, freed with its last reference (for `BufferRows`).
final class PixelBuffer {
    let base: UnsafeMutablePointer<UInt8>
    let count: Int

    init(count: Int) {
        self.count = count
        base = .allocate(capacity: max(1, count))
    }

    deinit {
        base.deallocate()
    }
}

extension RGBImage {
    /// Lends the image's rows to `body` without copying its pixels.
    func withRows<R>(_ body: (any RowSource) throws(ImagingError) -> R) throws(ImagingError) -> R {
        checkLayout()
        let result: Result<R, ImagingError> = pixels.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else {
                return .failure(.invalidArgument("an empty image has no rows"))
            }
            let rows = BufferRows(width: width, height: height, base: base, stride: width * 3, channels: 3, owner: nil)
            return Result { () throws(ImagingError) -> R in try body(rows) }
        }
        return try result.get()
    }
}
