import Foundation
import Logging
import Video

extension Application {
    /// Where Debian's ffmpeg puts its tools.
    static let ffmpeg = "/usr/bin/ffmpeg"
    static let ffprobe = "/usr/bin/ffprobe"

    /// The clip processor of the embedded household, or nil (photos only, said once in the log) when ffmpeg is not
    /// installed: the server still serves and posts photos.
    static func clipProcessor(_ configuration: ServeConfiguration) -> ClipProcessor? {
        guard FileManager.default.isExecutableFile(atPath: ffmpeg), FileManager.default.isExecutableFile(atPath: ffprobe) else {
            log.warning("ffmpeg is not installed (apt-get install ffmpeg): members can post photos but not clips")
            return nil
        }
        var limits = VideoLimits()
        limits.maxInputBytes = configuration.maxVideoBytes
        return ClipProcessor(limits: limits, ffmpeg: ffmpeg, ffprobe: ffprobe)
    }
}
