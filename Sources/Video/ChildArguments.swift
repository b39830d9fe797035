/// The command lines of ffprobe and ffmpeg, built from values alone.
///
/// Every input is opened as `file:<path>` with only the `file` protocol and the MP4/MOV and Matroska/WebM demuxers
/// allowed, so a file name is never read as an option or a URL, and a file that is really a playlist (HLS,
/// concat) cannot make ffmpeg open other files.
enum ChildArguments {
    static let demuxers = "mov,matroska"
    /// x264's speed against quality; see BENCHMARKS.md for the timings behind the choice.
    static let preset = "faster"
    /// The cap on poster frames printed to standard output.
    static let posterBytes = 50_000_000
    /// The cap on ffprobe's JSON: a file with thousands of streams is not a phone's clip.
    static let probeBytes = 4_000_000

    static func input(_ path: String) -> [String] {
        ["-protocol_whitelist", "file", "-format_whitelist", demuxers, "-i", "file:" + path]
    }

    static func probe(ffprobe: String, path: String) -> [String] {
        [ffprobe, "-hide_banner", "-v", "error", "-protocol_whitelist", "file", "-format_whitelist", demuxers]
            + ["-print_format", "json", "-show_format", "-show_streams", "file:" + path]
    }

    /// Threads for decoding, filtering and encoding: all the cores, up to a number whose frames and malloc arenas
    /// still fit a 4K 10-bit HEVC decode in the default address-space limit.
    static func threads(cores: Int) -> Int { min(max(1, cores), 8) }

    /// ffmpeg writing the first frame as PNG to standard output.
    static func poster(ffmpeg: String, path: String, threads: Int) -> [String] {
        [ffmpeg, "-nostdin", "-hide_banner", "-v", "error", "-threads", "\(threads)"] + input(path)
            + ["-map", "0:v:0", "-frames:v", "1", "-an", "-sn", "-dn", "-map_metadata", "-1"]
            + ["-c:v", "png", "-f", "image2pipe", "pipe:1"]
    }

    /// ffmpeg cutting, converting and encoding one story, with progress as `key=value` lines on standard output.
    static func transcode(ffmpeg: String, plan: TranscodePlan, input path: String, output: String, threads: Int) -> [String] {
        var arguments = [ffmpeg, "-nostdin", "-hide_banner", "-v", "error", "-nostats", "-progress", "pipe:1", "-y"]
        // Before -i, -ss seeks the input (fast, to the keyframe before, then decodes to the exact time) and -t
        // bounds what is read.
        arguments += ["-threads", "\(threads)", "-ss", seconds(plan.start), "-t", seconds(plan.seconds)] + input(path)
        arguments += ["-map", "0:v:0", "-map", "0:a:0?", "-sn", "-dn", "-map_metadata", "-1", "-map_chapters", "-1"]
        arguments += ["-filter_threads", "\(threads)", "-vf", plan.filters]
        arguments += ["-c:v", "libx264", "-preset", preset, "-profile:v", "high", "-pix_fmt", "yuv420p", "-threads", "\(threads)"]
        arguments += ["-b:v", "\(plan.videoBitrate)", "-maxrate", "\(plan.videoBitrate)", "-bufsize", "\(2 * plan.videoBitrate)"]
        arguments += ["-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709", "-color_range", "tv"]
        // x264 writes its version and settings in an SEI message; filter_units drops every SEI (x264 writes no other).
        arguments += ["-bsf:v", "filter_units=remove_types=6"]
        arguments += plan.hasAudio ? ["-c:a", "aac", "-b:a", "\(TranscodePlan.audioBitrate)", "-ac", "2"] : ["-an"]
        // Bit-exact mode leaves out the muxer's and encoders' version strings.
        arguments += ["-fflags", "+bitexact", "-flags:v", "+bitexact", "-flags:a", "+bitexact"]
        arguments += ["-movflags", "+faststart", "-f", "mp4", "file:" + output]
        return arguments
    }

    /// Seconds as ffmpeg reads them, to the millisecond.
    static func seconds(_ value: Double) -> String {
        let milliseconds = Int((value * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
