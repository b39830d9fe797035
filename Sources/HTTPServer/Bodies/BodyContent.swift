/// A request body, or one part of a multipart form: bytes in memory, or a byte range of a file on disk (for routes
/// that stream their bodies to a temporary file, and the file parts of forms parsed from one).
public enum BodyContent: Sendable, Equatable, ExpressibleByArrayLiteral {
    /// Bytes in memory.
    case bytes([UInt8])
    /// A byte range of a file.
    case file(BodyFile)

    /// `[0x41, 0x42]` is `.bytes([0x41, 0x42])`.
    public init(arrayLiteral elements: UInt8...) {
        self = .bytes(elements)
    }

    /// The length in bytes.
    public var count: Int {
        switch self {
        case .bytes(let bytes): bytes.count
        case .file(let file): file.count
        }
    }

    /// Whether there are no bytes.
    public var isEmpty: Bool { count == 0 }

    /// The bytes when they are in memory; nil for a file (use `load(limit:)` or the file itself).
    public var inMemory: [UInt8]? {
        guard case .bytes(let bytes) = self else { return nil }
        return bytes
    }

    /// The whole content in memory: the bytes, or the file's range read.
    /// - Throws: `BodyFileError` when the file cannot be read or is longer than `limit`.
    public func load(limit: Int = .max) throws(BodyFileError) -> [UInt8] {
        switch self {
        case .bytes(let bytes):
            guard bytes.count <= limit else { throw BodyFileError(.tooLarge, "the body is larger than \(limit) bytes") }
            return bytes
        case .file(let file):
            guard file.count <= limit else {
                throw BodyFileError(.tooLarge, "\(file.path) holds \(file.count) bytes, more than \(limit)")
            }
            return try file.read(0..<file.count)
        }
    }

    /// The first `count` bytes (fewer if shorter): enough to sniff a format without reading a whole file.
    public func prefix(_ count: Int) throws(BodyFileError) -> [UInt8] {
        switch self {
        case .bytes(let bytes): return Array(bytes.prefix(count))
        case .file(let file): return try file.read(0..<min(max(0, count), file.count))
        }
    }
}
