import Foundation

/// Debian's `ffprobe` and `ffmpeg`, run as bounded child processes: a hostile file can make a child fail, never
/// the server. One processor is shared by everything that touches video, so its slots bound the whole process.
public final class ClipProcessor: Sendable {
    /// What each child may use before it is stopped.
    public struct ChildLimits: Sendable, Equatable {
        /// Address space (`RLIMIT_AS`).
        public var memoryBytes: Int = 3 << 30
        /// CPU seconds (`RLIMIT_CPU`), over all the child's threads.
        public var cpuSeconds: Int = 240
        /// Wall-clock seconds before the child is killed.
        public var wallSeconds: Double = 180
        /// `nice` value, so serving pages stays ahead of transcoding.
        public var niceness: Int = 10

        public init() {}
    }

    public let limits: VideoLimits
    public let child: ChildLimits

    /// - Parameters:
    ///   - slots: children at once; nil is one per pair of cores.
    ///   - waiting: jobs that may wait for a slot; one more is refused with ``VideoError/Kind/busy``.
    public init(
        limits: VideoLimits = VideoLimits(), child: ChildLimits = ChildLimits(), ffmpeg: String = "/usr/bin/ffmpeg",
        ffprobe: String = "/usr/bin/ffprobe", slots: Int? = nil, waiting: Int = 4
    ) {
        self.limits = limits
        self.child = child
    }

    /// Probes `path` (streams, codec, size, duration, rotation, location) and checks it against ``limits``.
    public func probe(_ path: String) async throws(VideoError) -> ProbedClip {
        throw VideoError(.damaged, "not yet")
    }

    /// Transcodes `storySeconds` from `start` of a probed clip to `output`.
    public func transcode(
        _ path: String, probed: ProbedClip, start: Double, to output: String, progress: @escaping @Sendable (Double) -> Void = { _ in }
    ) async throws(VideoError) -> TranscodedClip {
        throw VideoError(.damaged, "not yet")
    }

    /// The first frame of an MP4 as PNG bytes, for the image pipeline to make posters of.
    public func posterFrame(_ path: String) async throws(VideoError) -> [UInt8] {
        throw VideoError(.damaged, "not yet")
    }

    /// Checks that an uploaded MP4 is what ``transcode(_:probed:start:to:progress:)`` makes.
    public func checkStoryClip(_ path: String) async throws(VideoError) -> ProbedClip {
        throw VideoError(.notOurFormat, "not yet")
    }
}
