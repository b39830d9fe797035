import Foundation
import Synchronization

/// The hashed files under a static root. Without watching, only files present at start are served.
final class StaticFileIndex: Sendable {
    struct Entry: Sendable, Equatable {
        /// The real path on disk.
        let path: String
        let fingerprint: String
        /// A strong entity tag: the full 64-bit content hash, quoted.
        let etag: String
        let size: Int64
        let modified: Int64
        /// Compressed copies, smallest first, for compressible types (empty otherwise).
        let variants: [StaticFiles.Variant]
    }

    let root: String
    let watch: Bool
    private let entries: Mutex<[String: Entry]>

    init(root: String, watch: Bool) {
        self.root = root
        self.watch = watch
        var found: [String: Entry] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            if relative.split(separator: "/").last?.hasPrefix(".") == true {
                enumerator?.skipDescendants()
                continue
            }
            if let path = Self.resolve(relative, in: root), let entry = Self.hash(path) {
                found[relative] = entry
            }
        }
        entries = Mutex(found)
    }

    /// The entry for a root-relative path; when watching, re-hashed if the file changed and added if new.
    func entry(for relative: String) -> Entry? {
        let known = entries.withLock { $0[relative] }
        guard watch else { return known }
        guard let path = Self.resolve(relative, in: root) else {
            entries.withLock { $0[relative] = nil }
            return nil
        }
        if let known, let (size, modified) = Self.stamp(path), known.size == size, known.modified == modified {
            return known
        }
        let fresh = Self.hash(path)
        entries.withLock { $0[relative] = fresh }
        return fresh
    }

    /// The real path of `relative` if it names a regular file inside `root`. Refuses empty, `.`, `..` and hidden
    /// segments, NUL bytes and backslashes, and symlinks that resolve outside the root.
    static func resolve(_ relative: String, in root: String) -> String? {
        let segments = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.isEmpty,
            segments.allSatisfy({ !$0.isEmpty && !$0.hasPrefix(".") && !$0.contains("\0") && !$0.contains("\\") })
        else { return nil }
        guard let resolved = realpath(root + "/" + relative, nil) else { return nil }
        let path = String(cString: resolved)
        free(resolved)
        guard path.hasPrefix(root + "/"), Response.regularFileSize(atPath: path) != nil else { return nil }
        return path
    }

    private static func stamp(_ path: String) -> (Int64, Int64)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (Int64(info.st_size), Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }

    /// Hashes the file and, for a compressible type small enough to hold, compresses it once (brotli and gzip).
    private static func hash(_ path: String) -> Entry? {
        guard let (size, modified) = stamp(path), let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hasher = FNV1a()
        let compressible =
            StaticFiles.isCompressible(StaticFiles.contentType(forFileName: path))
            && size <= StaticFiles.maxCompressedSource
        var whole: [UInt8] = []
        while let chunk = try? handle.read(upToCount: 64 * 1024), !chunk.isEmpty {
            chunk.withUnsafeBytes { hasher.combine($0) }
            if compressible { whole.append(contentsOf: chunk) }
        }
        let digest = hasher.hexDigest
        return Entry(
            path: path, fingerprint: hasher.fingerprint, etag: "\"\(digest)\"", size: size, modified: modified,
            variants: compressible ? StaticFiles.variants(of: whole, digest: digest) : [])
    }
}
