/// What makes an MP4 one the server would have made, checked on ffprobe's view of an uploaded file: the backend
/// takes clips from any client and must not pass on one that players may choke on or that hides extra streams.
enum StoryClipRules {
    static let profiles: Set<String> = ["High", "Main", "Constrained Baseline"]

    /// Everything wrong with the clip, each as the end of a sentence; empty when it is a story's clip.
    static func problems(_ probe: ProbeOutput, bytes: Int, limits: VideoLimits) -> [String] {
        var problems = sizeProblems(bytes: bytes, limits: limits)
        let format = probe.format?.formatName ?? ""
        if !format.split(separator: ",").contains("mp4") { problems.append("it is a \(format.isEmpty ? "unknown" : format) file, not an MP4") }
        let streams = probe.streams ?? []
        let videos = streams.filter { $0.codecType == "video" }
        let audios = streams.filter { $0.codecType == "audio" }
        if videos.count != 1 { problems.append("it has \(videos.count) video streams, not one") }
        if let video = videos.first { problems += videoProblems(video, limits: limits) }
        if audios.count > 1 { problems.append("it has \(audios.count) sound streams, not one") }
        if let audio = audios.first, audio.codecName != "aac" { problems.append("its sound is \(audio.codecName ?? "unknown"), not AAC") }
        let others = Set(streams.compactMap(\.codecType).filter { $0 != "video" && $0 != "audio" })
        if !others.isEmpty { problems.append("it holds \(others.sorted().joined(separator: " and ")) streams, which a story's clip does not") }
        let duration = probe.clip?.duration ?? 0
        if duration <= 0 { problems.append("its length could not be read") }
        if duration > limits.storySeconds + 0.5 {
            problems.append("it is \(Wording.length(duration)) long, longer than \(Wording.limit(limits.storySeconds))")
        }
        return problems
    }

    /// The file's size alone, judged before ffprobe reads it.
    static func sizeProblems(bytes: Int, limits: VideoLimits) -> [String] {
        guard bytes > limits.maxOutputBytes else { return [] }
        return [
            "it is \(Wording.bytes(bytes, roundingUp: true)), more than the \(Wording.bytes(limits.maxOutputBytes, roundingUp: false)) a story may be"
        ]
    }

    private static func videoProblems(_ video: ProbeOutput.Stream, limits: VideoLimits) -> [String] {
        var problems: [String] = []
        if video.codecName != "h264" { problems.append("its video is \(video.codecName ?? "unknown"), not H.264") }
        if video.codecName == "h264", !profiles.contains(video.profile ?? "") {
            problems.append("its H.264 profile is \(video.profile ?? "unknown"), not High, Main or Constrained Baseline")
        }
        if video.pixFmt != "yuv420p" { problems.append("its pixels are \(video.pixFmt ?? "unknown"), not yuv420p") }
        let width = video.width ?? 0
        let height = video.height ?? 0
        if width <= 0 || height <= 0 || max(width, height) > limits.maxOutputEdge {
            problems.append("its picture is \(width) × \(height), not within \(limits.maxOutputEdge) on each edge")
        }
        let fps = ProbeOutput.frameRate(video.avgFrameRate) ?? ProbeOutput.frameRate(video.rFrameRate) ?? 0
        if fps > Double(limits.maxOutputFPS) + 0.5 {
            problems.append("it has \(Int(fps.rounded())) frames per second, more than \(limits.maxOutputFPS)")
        }
        return problems
    }

    /// The sentence for ``VideoError/Kind/notOurFormat``.
    static func message(_ problems: [String]) -> String {
        "This is not a story clip as the server makes them: " + problems.joined(separator: "; ") + "."
    }
}
