import COpenSSL

#if canImport(Glibc)
    import Glibc
#endif

extension SHA256 {
    /// SHA-256 fed in pieces, for files too large to hold in memory (database snapshots, blob copies).
    public final class Hasher {
        private let context: OpaquePointer?

        public init() {
            context = EVP_MD_CTX_new()
            // Initialising SHA-256 on a fresh context cannot fail short of running out of memory, which `update`
            // and `finalize` then report as an empty digest.
            if let context { EVP_DigestInit_ex(context, EVP_sha256(), nil) }
        }

        deinit { EVP_MD_CTX_free(context) }

        /// Adds bytes to the digest.
        public func update(_ bytes: UnsafeRawBufferPointer) {
            guard let context, let base = bytes.baseAddress, !bytes.isEmpty else { return }
            EVP_DigestUpdate(context, base, bytes.count)
        }

        /// The 32-byte digest of everything added; the hasher must not be used afterwards.
        public func finalize() -> [UInt8] {
            var digest = [UInt8](repeating: 0, count: 32)
            var length: UInt32 = 0
            guard let context else { return [] }
            let ok = digest.withUnsafeMutableBufferPointer { EVP_DigestFinal_ex(context, $0.baseAddress, &length) }
            return ok == 1 && length == 32 ? digest : []
        }
    }
}

extension SHA256 {
    /// The size and digest of a file, read a megabyte at a time, so a large file never sits in memory.
    /// - Throws: `CryptoError` naming the path and the reason when it cannot be opened or read.
    public static func hash(fileAt path: String) throws(CryptoError) -> (size: Int, digest: [UInt8]) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CryptoError("could not open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let hasher = Hasher()
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var size = 0
        while true {
            let n = read(fd, buffer.baseAddress, chunk)
            if n < 0 {
                if errno == EINTR { continue }
                throw CryptoError("could not read \(path): \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[..<n]))
            size += n
        }
        return (size, hasher.finalize())
    }
}
