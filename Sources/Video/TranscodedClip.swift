/// A story's clip as the server made it: H.264 High, yuv420p, BT.709, AAC-LC, MP4 with the index first.
public struct TranscodedClip: Sendable, Equatable {
    /// Where the MP4 was written.
    public var path: String
    public var width: Int
    public var height: Int
    public var durationMs: Int
    public var bytes: Int
}
