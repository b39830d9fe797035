/// What a request's `Range` header asks of a representation of `size` bytes (RFC 9110 §14.1.2): one range of bytes,
/// none that can be met, or nothing this server serves in part (no header, another unit, several ranges, or a value it
/// cannot read; the whole representation answers those, as the RFC allows).
public enum ByteRange: Equatable, Sendable {
    /// Send everything, with 200.
    case whole
    /// Send these bytes, with 206 and `Content-Range`.
    case part(ClosedRange<Int64>)
    /// Nothing the request asks for exists: 416 with `Content-Range: bytes */size`.
    case unsatisfiable

    /// Reads `header` (the `Range` value, nil for none) against a representation of `size` bytes.
    public init(_ header: String?, size: Int64) {
        guard let header else { self = .whole; return }
        let value = header[...].trimmingASCIISpaces()
        guard value.lowercased().hasPrefix("bytes="), size >= 0 else { self = .whole; return }
        let spec = value.dropFirst("bytes=".count).trimmingASCIISpaces()
        // Several ranges would need multipart/byteranges; the whole file is a correct answer to them.
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { self = .whole; return }
        let first = spec[..<dash]
        let last = spec[spec.index(after: dash)...]
        guard first.allSatisfy(Self.isDigit), last.allSatisfy(Self.isDigit), !(first.isEmpty && last.isEmpty) else {
            self = .whole
            return
        }
        if first.isEmpty {
            // The last N bytes; a suffix longer than the file is the whole file, a suffix of none is nothing.
            guard let count = Int64(last) else { self = .whole; return }
            guard count > 0, size > 0 else { self = .unsatisfiable; return }
            self = .part(max(0, size - count)...(size - 1))
            return
        }
        guard let start = Int64(first) else { self = .unsatisfiable; return }
        guard start < size else { self = .unsatisfiable; return }
        // An end past the file (or one too large to read) stops at the file's end.
        let end = last.isEmpty ? size - 1 : min(Int64(last) ?? (size - 1), size - 1)
        guard end >= start else { self = .whole; return }
        self = .part(start...end)
    }

    private static func isDigit(_ character: Character) -> Bool { character >= "0" && character <= "9" }
}
