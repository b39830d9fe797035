import ATProto
import Foundation
import Imaging

/// Blobs on disk, addressed by CID, with the image sizes the front needs made once at write time.
public struct BlobStore: Sendable {
    /// The image presets served under `/img/<preset>/…`, named like Grain's CDN presets.
    public enum Preset: String, Sendable, CaseIterable {
        case fullsize = "feed_fullsize"
        case thumbnail = "feed_thumbnail"
        case avatar

        var suffix: String {
            switch self {
            case .fullsize: return ""
            case .thumbnail: return ".thumb.jpg"
            case .avatar: return ".avatar.jpg"
            }
        }
    }

    /// Longest edge of a thumbnail; the archive grid and previews show them at about 200 CSS px.
    public static let thumbnailEdge = 480
    /// Avatars are square; the profile page shows them at up to 128 CSS px, so 2× for dense screens.
    public static let avatarSize = 256

    public struct StoredBlob: Sendable, Equatable {
        public var cid: String
        public var size: Int
        public var mimeType: String
    }

    public struct BlobError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    let root: String
    let temporary: String

    public init(directory: String) throws {
        root = directory + "/blobs"
        temporary = directory + "/tmp"
        for path in [root, temporary] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
    }

    /// Stores `bytes` under their CID. Images get their thumbnail and avatar variants first, so
    /// that a blob visible under its CID always has them; an image that does not decode is refused.
    public func store(_ bytes: [UInt8], mimeType: String) throws -> StoredBlob {
        let cid = CID(hashing: bytes, codec: .raw).description
        let blob = StoredBlob(cid: cid, size: bytes.count, mimeType: mimeType)
        if FileManager.default.fileExists(atPath: path(cid: cid, preset: .fullsize)) { return blob }
        if mimeType == "image/jpeg" || mimeType == "image/png" {
            let thumbnail: Thumbnail
            let avatar: Thumbnail
            do {
                thumbnail = try Imaging.thumbnail(of: bytes, maxEdge: Self.thumbnailEdge, quality: 82)
                avatar = try Imaging.squareThumbnail(of: bytes, size: Self.avatarSize, quality: 85)
            } catch {
                throw BlobError(description: "The upload is not a readable \(mimeType) image: \(error)")
            }
            try AtomicFile.write(thumbnail.jpeg, to: path(cid: cid, preset: .thumbnail), temporaryDirectory: temporary)
            try AtomicFile.write(avatar.jpeg, to: path(cid: cid, preset: .avatar), temporaryDirectory: temporary)
        }
        try AtomicFile.write(bytes, to: path(cid: cid, preset: .fullsize), temporaryDirectory: temporary)
        return blob
    }

    /// Where a blob's variant lives (it may not exist).
    public func path(cid: String, preset: Preset) -> String {
        root + "/" + cid + preset.suffix
    }
}
