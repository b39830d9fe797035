/// What of a data directory a backup holds: its SQLite databases (as consistent snapshots), a few small plain files,
/// and the blob files. Never the sealing key: a backup must not be able to open the sessions and secrets it carries.
public struct DataLayout: Sendable, Equatable {
    /// Database file names, snapshotted in this order.
    public var databases: [String]
    /// Small files copied as they are when present (the key id names the key; it is not the key).
    public var files: [String]
    /// The folder of content-addressed, never-rewritten blob files.
    public var blobDirectory: String

    /// Blob files named by a CID of their SHA-256 are recorded by that digest when linked, not read again.
    public var blobsNamedByContent: Bool

    public init(databases: [String], files: [String], blobDirectory: String, blobsNamedByContent: Bool = false) {
        self.databases = databases
        self.files = files
        self.blobDirectory = blobDirectory
        self.blobsNamedByContent = blobsNamedByContent
    }

    /// grain-stories' data directory: the backend's records, the sign-in server's accounts and tokens, the front's
    /// sessions and seen marks; the key id; the blobs, each original named by the CID of its bytes (its variants,
    /// `<cid>.thumb.jpg` and `<cid>.avatar.jpg`, are hashed). The backend goes first: blobs are linked after every
    /// snapshot, so each blob a snapshot's records name is in the backup.
    public static let grainStories = DataLayout(
        databases: ["backend.sqlite", "auth.sqlite", "front.sqlite"], files: ["key-id"], blobDirectory: "blobs",
        blobsNamedByContent: true)

    /// Whether a file name could be a sealing key, which is never copied into or out of a backup.
    static func looksLikeKey(_ name: String) -> Bool {
        name.hasSuffix(".key") || name == "secret.key"
    }
}
