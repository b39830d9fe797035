/// What the server accepts from a phone, and what it makes of it.
public struct VideoLimits: Sendable, Equatable {
    /// The largest upload (`--max-video-bytes`).
    public var maxInputBytes: Int = 200_000_000
    /// The longest clip accepted, in seconds (ten minutes); the story is cut from it.
    public var maxInputSeconds: Double = 600
    /// The widest and tallest coded picture accepted (8K is 7680 × 4320).
    public var maxInputEdge: Int = 8192
    /// The longest story, in seconds.
    public var storySeconds: Double = 15
    /// The largest MP4 a story may be (the lexicon's `maxSize`).
    public var maxOutputBytes: Int = 5_000_000
    /// The longest edge of the story's picture.
    public var maxOutputEdge: Int = 1280
    /// The highest frame rate of the story.
    public var maxOutputFPS: Int = 30

    public init() {}
}
