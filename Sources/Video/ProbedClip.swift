/// What ffprobe found in a file, read before anything is decoded.
public struct ProbedClip: Sendable, Equatable {
    /// ffprobe's `format_name` (`mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`).
    public var container: String
    /// Seconds, from the container (or the longest stream when the container does not say).
    public var duration: Double
    public var video: VideoStream?
    /// The first audio stream's codec (`aac`, `opus`), nil for a silent clip.
    public var audioCodec: String?
    /// A position the camera recorded (QuickTime `©xyz` / `com.apple.quicktime.location.ISO6709`); never published.
    public var location: (latitude: Double, longitude: Double)?

    public struct VideoStream: Sendable, Equatable {
        /// ffprobe's `codec_name` (`h264`, `hevc`, `vp9`, `av1`).
        public var codec: String
        /// ffprobe's `profile` (`High`, `Main 10`), empty when unknown.
        public var profile: String
        /// The coded size, before rotation.
        public var width: Int
        public var height: Int
        /// Clockwise degrees to turn the picture to show it upright (0, 90, 180, 270).
        public var rotation: Int
        /// ffprobe's `pix_fmt` (`yuv420p`, `yuv420p10le`).
        public var pixelFormat: String
        /// Frames per second (`avg_frame_rate`, or `r_frame_rate`).
        public var framesPerSecond: Double
        /// `color_transfer` (`arib-std-b67` is HLG, `smpte2084` is PQ), `color_primaries` and `color_space`.
        public var transfer: String
        public var primaries: String
        public var matrix: String

        /// Whether the picture is high dynamic range and needs tone-mapping to look right in BT.709.
        public var isHDR: Bool { transfer == "arib-std-b67" || transfer == "smpte2084" }
        /// The size as shown, after rotation.
        public var displayWidth: Int { rotation % 180 == 0 ? width : height }
        public var displayHeight: Int { rotation % 180 == 0 ? height : width }
    }

    public static func == (a: ProbedClip, b: ProbedClip) -> Bool {
        a.container == b.container && a.duration == b.duration && a.video == b.video && a.audioCodec == b.audioCodec
            && a.location?.latitude == b.location?.latitude && a.location?.longitude == b.location?.longitude
    }
}
