import ATProto
import Crypto
import Foundation
import Imaging
import Logging

/// Blobs on disk, addressed by CID, with the image sizes the front needs made once at write time.
public struct BlobStore: Sendable {
    /// The image presets served under `/img/<preset>/…`, named like Grain's CDN presets.
    public enum Preset: String, Sendable, CaseIterable {
        case fullsize = "feed_fullsize"
        case thumbnail = "feed_thumbnail"
        case avatar
        /// A clip's first frame as a JPEG the size of the clip: the `<video>` poster, and the story's picture
        /// wherever a clip is shown as a still (link previews, a tablet that cannot play it).
        case poster = "video_poster"

        /// The variants a photo has (a clip has these and its poster).
        public static let ofPhotos: [Preset] = [.fullsize, .thumbnail, .avatar]

        var suffix: String {
            switch self {
            case .fullsize: return ""
            case .thumbnail: return ".thumb.jpg"
            case .avatar: return ".avatar.jpg"
            case .poster: return ".poster.jpg"
            }
        }
    }

    /// Longest edge of a thumbnail; the archive grid and previews show them at about 200 CSS px.
    public static let thumbnailEdge = 480
    /// Longest edge of a clip's poster: the largest picture a story's clip has.
    public static let posterEdge = 1280
    /// Avatars are square; the profile page shows them at up to 128 CSS px, so 2× for dense screens.
    public static let avatarSize = 256

    public struct StoredBlob: Sendable, Equatable {
        public var cid: String
        public var size: Int
        public var mimeType: String
    }

    /// Why a blob was not stored. Whatever the reason, nothing of it is left on disk.
    public struct BlobError: Error, Sendable, CustomStringConvertible {
        public enum Kind: Sendable, Equatable {
            /// The bytes are not a readable image of the declared type.
            case unreadableImage
            /// The disk, a quota or the process's file size limit has no room for the bytes.
            case insufficientStorage
            /// Another failure of the filesystem.
            case writeFailed
        }

        public let kind: Kind
        public let description: String
    }

    let root: String
    let temporary: String
    let fileSystem: BlobFileSystem
    /// Held while this store is open, so that another process opening the same directory does not sweep
    /// files this one is still writing.
    let lease: DirectoryLease

    /// Opens (creating) `<directory>/blobs` and `<directory>/tmp`. The first store to open a directory removes
    /// what a killed process left half-written there (see ``recovered``).
    /// - Parameters:
    ///   - directory: the data directory.
    ///   - fileSystem: the call that writes bytes; tests pass one that runs out of space.
    public init(directory: String, fileSystem: BlobFileSystem = .system) throws {
        root = directory + "/blobs"
        temporary = directory + "/tmp"
        self.fileSystem = fileSystem
        for path in [root, temporary] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        let (root, temporary) = (root, temporary)
        lease = try DirectoryLease(path: directory + "/blobs.lock") { Self.sweep(root: root, temporary: temporary) }
        if let recovered = lease.recovered, recovered.total > 0 {
            log.info("removed \(recovered) left in \(directory) by an interrupted write")
        }
    }

    /// What this store removed when it opened the directory; nil when another open store already had it.
    public var recovered: Recovery? { lease.recovered }

    /// Stores `bytes` under their CID. An image gets its thumbnail and avatar variants first, so that a blob
    /// visible under its CID always has them; an image that does not decode is refused. The original is written
    /// last: its presence is what says the blob is complete.
    /// - Throws: ``BlobError``; nothing of the blob is left behind then.
    public func store(_ bytes: [UInt8], mimeType: String) throws -> StoredBlob {
        let blob = StoredBlob(cid: CID(hashing: bytes, codec: .raw).description, size: bytes.count, mimeType: mimeType)
        let picture = mimeType == "image/jpeg" || mimeType == "image/png" ? bytes : nil
        return try store(blob, picture: picture, poster: false) { original throws(AtomicFile.WriteError) in
            try AtomicFile.write(bytes, to: original, temporaryDirectory: temporary, fileSystem: fileSystem)
        }
    }

    /// Stores the clip at `path` (a file in this store's temporary directory, which is renamed into place, so the
    /// clip is never read into memory) with its poster, thumbnail and avatar made from `poster`, its first frame.
    /// - Parameter identity: the clip's CID and size, from `identity(ofFileAt:)`.
    /// - Throws: ``BlobError``; nothing of the blob but `path` is left behind then (the caller removes it).
    public func store(clipAt path: String, identity: (cid: String, size: Int), poster: [UInt8]) throws -> StoredBlob {
        let blob = StoredBlob(cid: identity.cid, size: identity.size, mimeType: "video/mp4")
        return try store(blob, picture: poster, poster: true) { original throws(AtomicFile.WriteError) in
            try AtomicFile.place(path, at: original)
        }
    }

    /// The CID and size of a file's bytes, read in pieces.
    /// - Throws: ``BlobError`` (`writeFailed`) when the file cannot be read.
    public func identity(ofFileAt path: String) throws(BlobError) -> (cid: String, size: Int) {
        do {
            let (size, digest) = try SHA256.hash(fileAt: path)
            return (CID(codec: .raw, digest: digest).description, size)
        } catch {
            throw BlobError(kind: .writeFailed, description: "The blob could not be read back to store it: \(error)")
        }
    }

    /// Writes `picture`'s variants, then the original by `writeOriginal`; a blob already complete is left as it is.
    private func store(
        _ blob: StoredBlob, picture: [UInt8]?, poster: Bool, writeOriginal: (String) throws(AtomicFile.WriteError) -> Void
    ) throws -> StoredBlob {
        let original = path(cid: blob.cid, preset: .fullsize)
        if FileManager.default.fileExists(atPath: original) { return blob }
        var variants: [(Preset, [UInt8])] = []
        if let picture {
            do {
                if poster {
                    variants.append((.poster, try Imaging.thumbnail(of: picture, maxEdge: Self.posterEdge, quality: 85).jpeg))
                }
                variants.append((.thumbnail, try Imaging.thumbnail(of: picture, maxEdge: Self.thumbnailEdge, quality: 82).jpeg))
                variants.append((.avatar, try Imaging.squareThumbnail(of: picture, size: Self.avatarSize, quality: 85).jpeg))
            } catch {
                throw BlobError(kind: .unreadableImage, description: "The upload is not a readable \(blob.mimeType) image: \(error)")
            }
        }
        var written: [String] = []
        do throws(AtomicFile.WriteError) {
            for (preset, jpeg) in variants {
                try AtomicFile.write(jpeg, to: path(cid: blob.cid, preset: preset), temporaryDirectory: temporary, fileSystem: fileSystem)
                written.append(path(cid: blob.cid, preset: preset))
            }
            try writeOriginal(original)
        } catch {
            // Variants without their original are unreachable; keep them only if a concurrent store of the
            // same bytes has completed meanwhile.
            if !FileManager.default.fileExists(atPath: original) {
                for path in written { unlink(path) }
            }
            if error.isOutOfSpace {
                throw BlobError(
                    kind: .insufficientStorage,
                    description: "The server has no room left to store this \(blob.size)-byte blob; nothing was kept")
            }
            throw BlobError(kind: .writeFailed, description: "The blob could not be written: \(error)")
        }
        return blob
    }

    /// Where a blob's variant lives (it may not exist).
    public func path(cid: String, preset: Preset) -> String {
        root + "/" + cid + preset.suffix
    }
}

extension BlobStore {
    /// Removes a blob's original and variants (missing files are fine).
    public func remove(cid: String) {
        guard (try? CID(cid)) != nil else { return }
        for preset in Preset.allCases { unlink(path(cid: cid, preset: preset)) }
    }

    /// The CIDs of every complete blob on disk (those whose original is there).
    func storedCIDs() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return names.filter { !$0.contains(".") && (try? CID($0)) != nil }
    }
}
