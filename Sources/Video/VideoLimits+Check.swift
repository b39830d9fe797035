extension VideoLimits {
    /// The video codecs ffmpeg reads for the server, as ffprobe names them.
    static let acceptedCodecs: Set<String> = ["h264", "hevc", "vp8", "vp9", "av1", "mpeg4"]
    static let acceptedCodecNames = "H.264, HEVC, VP8, VP9, AV1 and MPEG-4"

    /// Refuses a file larger than ``maxInputBytes``, before anything reads it.
    func checkInputSize(_ bytes: Int) throws(VideoError) {
        guard bytes <= maxInputBytes else {
            throw VideoError(
                .tooLarge,
                "This clip is \(Wording.bytes(bytes, roundingUp: true)); the largest accepted is "
                    + "\(Wording.bytes(maxInputBytes, roundingUp: false)). Trim it or record a shorter clip, then try again.")
        }
    }

    /// Refuses a probed clip the server will not decode. The picture size is judged before the codec, so a file
    /// whose size ffprobe could not even read is refused for that, whatever it claims to be.
    func check(_ clip: ProbedClip) throws(VideoError) {
        guard let video = clip.video else {
            throw VideoError(.noVideoStream, "This file has no video in it (only sound, or not a video at all); choose a video clip.")
        }
        let accepted = "pictures up to \(maxInputEdge) × \(maxInputEdge) are accepted"
        guard video.width > 0, video.height > 0 else {
            throw VideoError(.tooManyPixels, "This clip's picture size could not be read; \(accepted).")
        }
        guard video.width <= maxInputEdge, video.height <= maxInputEdge else {
            throw VideoError(.tooManyPixels, "This clip's picture is \(video.width) × \(video.height); \(accepted).")
        }
        guard Self.acceptedCodecs.contains(video.codec) else {
            let name = video.codec.isEmpty ? "an unknown format" : "the \(video.codec) format"
            throw VideoError(
                .unsupportedCodec, "This clip is in \(name), which the server does not read; \(Self.acceptedCodecNames) videos are accepted.")
        }
        guard clip.duration <= maxInputSeconds else {
            throw VideoError(
                .tooLong,
                "This clip is \(Wording.length(clip.duration)) long; clips up to \(Wording.limit(maxInputSeconds)) are accepted. "
                    + "Trim it on your phone and try again.")
        }
    }
}
