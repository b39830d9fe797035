import MappedFiles

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

extension MappedFile {
    /// Maps an uploaded photo, refusing one over `maxBytes` before any of it is read.
    static func photo(at path: String, maxBytes: Int) throws(ImagingError) -> MappedFile {
        do {
            return try MappedFile(path: path, maximumSize: maxBytes)
        } catch {
            switch error {
            case .tooLarge(_, let size, let limit): throw .fileTooLarge(bytes: size, maxBytes: limit)
            case .empty: throw .unsupportedFormat
            case .unreadable, .notRegularFile: throw .unreadable(error.description)
            }
        }
    }

    var input: EncodedInput { EncodedInput(bytes: UnsafeRawBufferPointer(bytes), path: path) }
}
