import Foundation

/// ffprobe's JSON (`-print_format json -show_format -show_streams`), only the fields the server reads.
///
/// Every field is optional: ffprobe leaves out what it could not work out, and a missing field must make a clip
/// refused with a reason, not make the parse fail.
struct ProbeOutput: Decodable, Sendable, Equatable {
    struct Stream: Decodable, Sendable, Equatable {
        var codecType: String?
        var codecName: String?
        var profile: String?
        var width: Int?
        var height: Int?
        var pixFmt: String?
        var avgFrameRate: String?
        var rFrameRate: String?
        var colorTransfer: String?
        var colorPrimaries: String?
        var colorSpace: String?
        var duration: String?
        var channels: Int?
        var disposition: [String: Int]?
        var tags: [String: String]?
        var sideDataList: [SideData]?

        enum CodingKeys: String, CodingKey {
            case codecType = "codec_type", codecName = "codec_name", profile, width, height, pixFmt = "pix_fmt"
            case avgFrameRate = "avg_frame_rate", rFrameRate = "r_frame_rate", colorTransfer = "color_transfer"
            case colorPrimaries = "color_primaries", colorSpace = "color_space", duration, channels, disposition, tags
            case sideDataList = "side_data_list"
        }

        /// A cover image in the file, which ffprobe lists as a video stream.
        var isAttachedPicture: Bool { disposition?["attached_pic"] == 1 }
    }

    struct SideData: Decodable, Sendable, Equatable {
        var sideDataType: String?
        var rotation: Double?

        enum CodingKeys: String, CodingKey {
            case sideDataType = "side_data_type", rotation
        }
    }

    struct Format: Decodable, Sendable, Equatable {
        var formatName: String?
        var duration: String?
        var tags: [String: String]?

        enum CodingKeys: String, CodingKey {
            case formatName = "format_name", duration, tags
        }
    }

    var streams: [Stream]?
    var format: Format?

    /// Parses ffprobe's standard output; nil when it is not the JSON ffprobe prints.
    static func parse(_ bytes: [UInt8]) -> ProbeOutput? {
        try? JSONDecoder().decode(ProbeOutput.self, from: Data(bytes))
    }

    var videoStreams: [Stream] { (streams ?? []).filter { $0.codecType == "video" && !$0.isAttachedPicture } }
    var audioStreams: [Stream] { (streams ?? []).filter { $0.codecType == "audio" } }

    /// The clip as the rest of the server sees it; nil when ffprobe found no duration (an unreadable file).
    var clip: ProbedClip? {
        let streamDurations = (streams ?? []).compactMap { $0.duration.flatMap(Double.init) }
        let duration = format?.duration.flatMap(Double.init) ?? streamDurations.max()
        guard let duration, duration.isFinite, duration > 0 else { return nil }
        return ProbedClip(
            container: format?.formatName ?? "",
            duration: duration,
            video: videoStreams.first.map(Self.videoStream),
            audioCodec: audioStreams.first.map { $0.codecName ?? "" },
            location: location)
    }

    /// Where the camera was, from the QuickTime key Apple writes or the `©xyz` atom ffmpeg calls `location`.
    var location: (latitude: Double, longitude: Double)? {
        let tags = format?.tags ?? [:]
        let keys = ["com.apple.quicktime.location.ISO6709", "location", "location-eng"]
        return keys.lazy.compactMap { tags[$0].flatMap(ISO6709.parse) }.first
    }

    private static func videoStream(_ stream: Stream) -> ProbedClip.VideoStream {
        ProbedClip.VideoStream(
            codec: stream.codecName ?? "",
            profile: stream.profile ?? "",
            width: stream.width ?? 0,
            height: stream.height ?? 0,
            rotation: rotation(of: stream),
            pixelFormat: stream.pixFmt ?? "",
            framesPerSecond: frameRate(stream.avgFrameRate) ?? frameRate(stream.rFrameRate) ?? 0,
            transfer: stream.colorTransfer ?? "",
            primaries: stream.colorPrimaries ?? "",
            matrix: stream.colorSpace ?? "")
    }

    /// Clockwise degrees to turn the picture upright.
    ///
    /// ffprobe prints the display matrix's angle counter-clockwise (libavutil's `av_display_rotation_get`), so a
    /// phone held upright, whose picture must turn 90° clockwise, shows `rotation: -90`. The older `rotate` stream
    /// tag (ffmpeg 4 and earlier) was already clockwise.
    static func rotation(of stream: Stream) -> Int {
        if let matrix = stream.sideDataList?.first(where: { $0.sideDataType == "Display Matrix" }), let angle = matrix.rotation {
            return normalisedRotation(-angle)
        }
        if let tag = stream.tags?["rotate"], let angle = Double(tag) {
            return normalisedRotation(angle)
        }
        return 0
    }

    /// The nearest quarter turn in 0..<360.
    static func normalisedRotation(_ degrees: Double) -> Int {
        guard degrees.isFinite else { return 0 }
        let quarters = Int((degrees / 90).rounded())
        return ((quarters % 4) + 4) % 4 * 90
    }

    /// `30000/1001` as 29.97; nil for `0/0` (unknown) or anything else.
    static func frameRate(_ text: String?) -> Double? {
        guard let text else { return nil }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let value: Double?
        if parts.count == 2, let numerator = Double(parts[0]), let denominator = Double(parts[1]), denominator > 0 {
            value = numerator / denominator
        } else {
            value = parts.count == 1 ? Double(text) : nil
        }
        guard let value, value.isFinite, value > 0 else { return nil }
        return value
    }
}
