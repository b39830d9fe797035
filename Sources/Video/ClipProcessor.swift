import Foundation
import Logging

/// Debian's `ffprobe` and `ffmpeg`, run as bounded child processes: a hostile file can make a child fail, never
/// the server. One processor is shared by everything that touches video, so its slots bound the whole process.
public final class ClipProcessor: Sendable {
    /// What each child may use before it is stopped.
    public struct ChildLimits: Sendable, Equatable {
        /// Address space (`RLIMIT_AS`). Debian's ffmpeg needs about 250 MB to load its libraries; a 4K 10-bit HEVC
        /// clip tone-mapped to 720p peaks at about 0.8 GB with 2 threads and 1.3 GB with 8 (ffmpeg 5.1, two malloc
        /// arenas), which leaves room for 8K input.
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
    let ffmpeg: String
    let ffprobe: String
    let gate: ProcessingGate
    /// Threads each ffmpeg decodes, filters and encodes with.
    let threads: Int
    let logger = Logger("video")

    /// - Parameters:
    ///   - slots: children at once; nil is one per pair of cores.
    ///   - waiting: jobs that may wait for a slot; one more is refused with ``VideoError/Kind/busy``.
    public init(
        limits: VideoLimits = VideoLimits(), child: ChildLimits = ChildLimits(), ffmpeg: String = "/usr/bin/ffmpeg",
        ffprobe: String = "/usr/bin/ffprobe", slots: Int? = nil, waiting: Int = 4
    ) {
        self.limits = limits
        self.child = child
        self.ffmpeg = ffmpeg
        self.ffprobe = ffprobe
        let cores = ProcessInfo.processInfo.activeProcessorCount
        gate = ProcessingGate(slots: slots ?? max(1, cores / 2), waiting: waiting)
        threads = ChildArguments.threads(cores: cores)
    }

    /// The ffmpeg command line ``transcode(_:probed:start:to:progress:)`` runs for these arguments (its first try,
    /// writing straight to `output`), for benchmarks and logs. It starts with the ffmpeg executable; the server
    /// runs it under `prlimit` and `nice`.
    public func transcodeArguments(_ path: String, probed: ProbedClip, start: Double, to output: String) -> [String] {
        guard let video = probed.video else { return [] }
        let plan = TranscodePlan(probed: probed, video: video, start: start, limits: limits)
        return ChildArguments.transcode(ffmpeg: ffmpeg, plan: plan, input: path, output: output, threads: threads)
    }
}
