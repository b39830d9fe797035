extension ClipProcessor {
    /// Probes `path` (streams, codec, size, duration, rotation, location) and checks it against ``limits``.
    ///
    /// A file over ``VideoLimits/maxInputBytes`` is refused before ffprobe runs; nothing is decoded beyond what
    /// ffprobe reads of the first frames.
    public func probe(_ path: String) async throws(VideoError) -> ProbedClip {
        try limits.checkInputSize(try regularFileSize(path))
        let output = try await gate.withSlot { () async throws(VideoError) in try await probeOutput(path) }
        guard let clip = output.clip else { throw Self.damaged }
        try limits.check(clip)
        return clip
    }

    /// Checks that an uploaded MP4 is what ``transcode(_:probed:start:to:progress:)`` makes: an MP4 holding one
    /// H.264 (High, Main or Constrained Baseline, yuv420p) video within the story's size, length and frame rate,
    /// AAC sound or none, and nothing else. Refusals are ``VideoError/Kind/notOurFormat`` naming what is wrong.
    public func checkStoryClip(_ path: String) async throws(VideoError) -> ProbedClip {
        let bytes = try regularFileSize(path)
        let tooLarge = StoryClipRules.sizeProblems(bytes: bytes, limits: limits)
        guard tooLarge.isEmpty else { throw VideoError(.notOurFormat, StoryClipRules.message(tooLarge)) }
        let output = try await gate.withSlot { () async throws(VideoError) in try await probeOutput(path) }
        let problems = StoryClipRules.problems(output, bytes: bytes, limits: limits)
        guard problems.isEmpty, let clip = output.clip else { throw VideoError(.notOurFormat, StoryClipRules.message(problems)) }
        return clip
    }
}
