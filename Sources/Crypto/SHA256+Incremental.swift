import COpenSSL

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
