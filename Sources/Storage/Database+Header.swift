#if canImport(Glibc)
    import Glibc
#endif

extension Database {
    /// Whether the file at `path` starts as an SQLite database does (the magic string and a valid page size,
    /// per sqlite.org/fileformat.html §1.3). SQLite itself cannot be asked: while a write-ahead log holds page 1,
    /// a reader takes the header from there and never looks at a damaged main file. An empty file is not damaged
    /// (a database not yet written to); a missing one is not this check's business.
    public static func headerIsIntact(ofFileAt path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return errno == ENOENT }
        defer { close(descriptor) }
        var header = [UInt8](repeating: 0, count: 18)
        let count = header.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, 18) }
        if count == 0 { return true }
        guard count == 18, header[0..<16].elementsEqual(Array("SQLite format 3".utf8) + [0]) else { return false }
        let pageSize = Int(header[16]) << 8 | Int(header[17])
        return pageSize == 1 || (pageSize >= 512 && pageSize <= 32_768 && pageSize & (pageSize - 1) == 0)
    }
}
