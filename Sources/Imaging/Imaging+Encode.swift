import CTurboJPEG
import Dispatch

extension Imaging {
    /// Encodes RGB pixels as a baseline JPEG carrying no metadata beyond the JFIF APP0 segment libturbojpeg writes,
    /// so nothing from the original upload (EXIF, GPS, ICC, comments) can survive.
    /// - Parameters:
    ///   - image: the pixels to encode; must be at least 1×1.
    ///   - quality: 1–100; values outside are clamped, so a quality search may probe 0.
    ///   - subsampling420: 4:2:0 chroma (smaller, the norm for photos) or 4:4:4 (sharper colour edges).
    public static func encodeJPEG(
        _ image: RGBImage,
        quality: Int,
        subsampling420: Bool = true
    ) throws(ImagingError) -> [UInt8] {
        guard image.width > 0, image.height > 0 else {
            throw .invalidArgument("cannot encode a \(image.width)×\(image.height) image")
        }
        guard image.pixels.count == image.width * image.height * 3 else {
            throw .invalidArgument("\(image.pixels.count) bytes for \(image.width)×\(image.height) RGB pixels")
        }
        // libjpeg's own dimension limit; larger values would also overflow the Int32 parameters.
        guard image.width <= 65_500, image.height <= 65_500 else {
            throw .invalidArgument("\(image.width)×\(image.height) is larger than JPEG allows")
        }
        guard let handle = tjInitCompress() else {
            throw .encodingFailed("could not create a JPEG encoder: \(JPEGDecoder.errorMessage(nil))")
        }
        defer { tjDestroy(handle) }

        let subsampling = subsampling420 ? TJSAMP_420 : TJSAMP_444
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        // Freed on every path, including a failure after libturbojpeg allocated the buffer.
        defer { tjFree(output) }
        let status = image.pixels.withUnsafeBufferPointer { input in
            tjCompress2(
                handle,
                input.baseAddress,
                Int32(image.width),
                Int32(image.width * 3),
                Int32(image.height),
                TJPF_RGB.rawValue,
                &output,
                &size,
                Int32(subsampling.rawValue),
                Int32(min(max(quality, 1), 100)),
                0
            )
        }
        guard status == 0, let output else { throw .encodingFailed(JPEGDecoder.errorMessage(handle)) }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    /// `encodeJPEG` at each quality, all at once on separate threads (each with its own encoder handle).
    static func encodeJPEGs(_ image: RGBImage, qualities: [Int]) throws(ImagingError) -> [[UInt8]] {
        guard qualities.count > 1 else {
            return try qualities.map { quality throws(ImagingError) in try encodeJPEG(image, quality: quality) }
        }
        let results = ResultSlots(count: qualities.count)
        DispatchQueue.concurrentPerform(iterations: qualities.count) { index in
            results.set(index, Result { () throws(ImagingError) in try encodeJPEG(image, quality: qualities[index]) })
        }
        return try results.values()
    }
}

/// One result slot per concurrent encode; each thread writes only its own slot, and all are read after the
/// threads have joined (`concurrentPerform` returns only then).
private final class ResultSlots: @unchecked Sendable {
    private let count: Int
    /// Raw memory rather than an array: concurrent writes to distinct elements of one array would be
    /// overlapping accesses to the array itself.
    private let slots: UnsafeMutablePointer<Result<[UInt8], ImagingError>?>

    init(count: Int) {
        self.count = count
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil, count: count)
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    func set(_ index: Int, _ result: Result<[UInt8], ImagingError>) {
        slots[index] = result
    }

    func values() throws(ImagingError) -> [[UInt8]] {
        try (0..<count).map { index throws(ImagingError) in
            guard let slot = slots[index] else { throw .encodingFailed("an encode did not run") }
            return try slot.get()
        }
    }
}
