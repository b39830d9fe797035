/// What one transcode does, worked out from the probe alone: the cut, the picture size and rate, the colour
/// conversion and the bitrate. Pure, so every decision is tested without running ffmpeg.
struct TranscodePlan: Sendable, Equatable {
    var start: Double
    var seconds: Double
    /// The output picture, upright (after rotation), even on both edges.
    var width: Int
    var height: Int
    /// The frame rate the output is brought down to, nil when the input is no faster than the limit.
    var framesPerSecond: Int?
    /// The HDR input's colour, for zscale to tone-map from; nil for SDR input.
    var hdr: HDRInput?
    /// The input's YCbCr matrix, as swscale names it, for SDR input.
    var sdrMatrix: String
    var hasAudio: Bool
    var videoBitrate: Int

    static let audioBitrate = 96_000
    /// More than this buys nothing visible at 1280 × 720 and only fills the phone's data plan.
    static let highestVideoBitrate = 4_000_000
    static let lowestVideoBitrate = 100_000
    /// Retries are made at this share of the first bitrate when the first file came out too large.
    static let retryShare = 0.65

    /// zscale's names for an HDR input's transfer, primaries and matrix, defaulting to BT.2020 where ffprobe was
    /// silent (zimg refuses to convert from "unspecified").
    struct HDRInput: Sendable, Equatable {
        var transfer: String
        var primaries: String
        var matrix: String
    }

    init(probed: ProbedClip, video: ProbedClip.VideoStream, start requestedStart: Double, limits: VideoLimits) {
        let latestStart = max(0, probed.duration - 0.5)
        start = requestedStart.isFinite ? min(max(0, requestedStart), latestStart) : 0
        seconds = max(0.1, min(limits.storySeconds, probed.duration - start))
        (width, height) = Self.outputSize(width: video.displayWidth, height: video.displayHeight, longestEdge: limits.maxOutputEdge)
        let fps = video.framesPerSecond
        // An unknown rate may hide anything, so it is capped too.
        framesPerSecond = fps > 0 && fps <= Double(limits.maxOutputFPS) + 0.01 ? nil : limits.maxOutputFPS
        hdr =
            video.isHDR
            ? HDRInput(
                transfer: video.transfer,
                primaries: Self.zscalePrimaries.contains(video.primaries) ? video.primaries : "bt2020",
                matrix: Self.zscaleMatrices.contains(video.matrix) ? video.matrix : "bt2020nc")
            : nil
        sdrMatrix = Self.swscaleMatrix(video.matrix, height: min(video.width, video.height))
        hasAudio = probed.audioCodec != nil
        videoBitrate = Self.videoBitrate(seconds: seconds, hasAudio: hasAudio, maxBytes: limits.maxOutputBytes)
    }

    /// Fits `width` × `height` in `longestEdge` without enlarging, both edges even (yuv420p needs them so).
    static func outputSize(width: Int, height: Int, longestEdge: Int) -> (Int, Int) {
        let scale = min(1, Double(longestEdge) / Double(max(width, height, 1)))
        func even(_ edge: Int) -> Int { max(2, Int((Double(edge) * scale).rounded()) & ~1) }
        return (even(width), even(height))
    }

    /// The video's share of a budget of 90% of the largest file (the rest is the container and x264's overshoot).
    static func videoBitrate(seconds: Double, hasAudio: Bool, maxBytes: Int) -> Int {
        let total = 0.9 * Double(maxBytes) * 8 / max(seconds, 0.1)
        let video = Int(total) - (hasAudio ? audioBitrate : 0)
        return min(highestVideoBitrate, max(lowestVideoBitrate, video))
    }

    static let zscalePrimaries: Set<String> = ["bt709", "bt2020", "smpte432", "smpte431", "smpte170m", "bt470bg"]
    static let zscaleMatrices: Set<String> = ["bt709", "bt2020nc", "bt2020c", "smpte170m", "bt470bg"]

    /// swscale's name for ffprobe's `color_space`; an untagged picture is taken as players take it, BT.709 when
    /// it is HD and BT.601 below.
    static func swscaleMatrix(_ colorSpace: String, height: Int) -> String {
        switch colorSpace {
        case "bt709": "bt709"
        case "smpte170m", "bt470bg": "bt601"
        case "bt2020nc", "bt2020c": "bt2020"
        case "smpte240m": "smpte240m"
        case "fcc": "fcc"
        default: height >= 720 ? "bt709" : "bt601"
        }
    }

    /// The filter graph after ffmpeg's own rotation (which it inserts before these filters): the rate first, so
    /// dropped frames cost nothing, then size and colour in one pass for SDR, or in linear light for HDR.
    var filters: String {
        var chain: [String] = []
        if let framesPerSecond { chain.append("fps=\(framesPerSecond)") }
        if let hdr {
            // Resizing in the first zscale leaves the float stages a quarter of a 4K picture's pixels.
            chain += [
                "zscale=w=\(width):h=\(height):f=bicubic:tin=\(hdr.transfer):pin=\(hdr.primaries):min=\(hdr.matrix):t=linear:npl=100",
                "format=gbrpf32le", "zscale=p=bt709", "tonemap=hable:desat=0", "zscale=t=bt709:m=bt709:r=tv", "format=yuv420p",
            ]
        } else {
            chain += [
                "scale=w=\(width):h=\(height):flags=bicubic:in_color_matrix=\(sdrMatrix):out_color_matrix=bt709:out_range=tv",
                "format=yuv420p",
            ]
        }
        chain.append("setsar=1")
        return chain.joined(separator: ",")
    }
}
