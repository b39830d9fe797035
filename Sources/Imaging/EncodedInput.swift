#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The encoded bytes of one upload, borrowed for the duration of one call: a Swift array's storage, or a read-only
/// map of a file. With a `path`, decoders that can read a file themselves (libpng, libheif) do so, and the map is
/// only touched where the header is; the others read the map, whose pages are the page cache's, not the heap's.
struct EncodedInput {
    let bytes: UnsafeRawBufferPointer
    let path: String?

    /// The format from the magic bytes.
    var format: ImageFormat? {
        ImageSniffer.format(of: UnsafeRawBufferPointer(rebasing: bytes.prefix(ImageSniffer.prefixLength)))
    }

    /// Copies a range out (metadata blocks), with the range already checked by the caller.
    func copy(_ range: Range<Int>) -> [UInt8] {
        Array(bytes[range])
    }
}

/// A read-only private map of a whole file, unmapped on deinit.
final class MappedFile {
    let bytes: UnsafeRawBufferPointer
    let path: String

    /// Opens and maps `path` after checking its size against `maxBytes`, so an oversized file is refused before
    /// any of it is read.
    init(path: String, maxBytes: Int) throws(ImagingError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadable("cannot open \(path): \(Self.errorText())") }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .unreadable("cannot stat \(path): \(Self.errorText())") }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .unreadable("\(path) is not a regular file") }
        let size = Int(status.st_size)
        guard size <= maxBytes else { throw .fileTooLarge(bytes: size, maxBytes: maxBytes) }
        guard size > 0 else { throw .unsupportedFormat }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else {
            throw .unreadable("cannot map \(path): \(Self.errorText())")
        }
        bytes = UnsafeRawBufferPointer(start: base, count: size)
        self.path = path
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    }

    var input: EncodedInput { EncodedInput(bytes: bytes, path: path) }

    private static func errorText() -> String {
        String(cString: strerror(errno))
    }
}
