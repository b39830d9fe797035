import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

extension ClipProcessor {
    /// Transcodes `storySeconds` from `start` of a probed clip to `output`: H.264 High, yuv420p, BT.709 (HDR
    /// tone-mapped), upright, within ``VideoLimits/maxOutputEdge`` and ``VideoLimits/maxOutputFPS``, AAC-LC
    /// sound, no metadata, the index first, and under ``VideoLimits/maxOutputBytes``.
    ///
    /// ffmpeg writes to a temporary file beside `output`, renamed on success; on any failure neither is left.
    /// `progress` gets rising fractions in 0...1 as ffmpeg writes (called on a thread that reads ffmpeg's output),
    /// and 1 when the clip is done.
    public func transcode(
        _ path: String, probed: ProbedClip, start: Double, to output: String, progress: @escaping @Sendable (Double) -> Void = { _ in }
    ) async throws(VideoError) -> TranscodedClip {
        // The caller's ProbedClip is a value anyone can make: it is checked again rather than trusted.
        try limits.check(probed)
        guard let video = probed.video else { throw VideoError(.noVideoStream, "This file has no video in it.") }
        let plan = TranscodePlan(probed: probed, video: video, start: start, limits: limits)
        return try await gate.withSlot { () async throws(VideoError) in
            let temporary = try reserveTemporaryFile(beside: output)
            let forward = Monotonic(progress)
            do throws(VideoError) {
                let made = try await transcode(path, plan: plan, temporary: temporary, output: output, progress: forward)
                forward.report(1)
                return made
            } catch {
                unlink(temporary)
                unlink(output)
                throw error
            }
        }
    }

    /// One try at the planned bitrate, and one more at a lower one if the file came out too large.
    private func transcode(
        _ path: String, plan: TranscodePlan, temporary: String, output: String, progress: Monotonic
    ) async throws(VideoError) -> TranscodedClip {
        var attempt = plan
        for _ in 0..<2 {
            let argv = ChildArguments.transcode(ffmpeg: ffmpeg, plan: attempt, input: path, output: temporary, threads: threads)
            let seconds = attempt.seconds
            _ = try await run(argv, stdoutLimit: 64 * 1024) { line in
                if let fraction = ProgressLine.fraction(line, totalSeconds: seconds) { progress.report(fraction) }
            }
            let bytes = try regularFileSize(temporary)
            if bytes < limits.maxOutputBytes {
                return try await keep(temporary, as: output, bytes: bytes)
            }
            logger.info("story clip over its size, encoding again", fields: ["bytes": "\(bytes)", "bitrate": "\(attempt.videoBitrate)"])
            attempt.videoBitrate = Int(Double(plan.videoBitrate) * TranscodePlan.retryShare)
        }
        throw VideoError(
            .tooLarge,
            "This clip could not be made smaller than \(Wording.bytes(limits.maxOutputBytes, roundingUp: false)) even at a lower quality; try a calmer or shorter clip."
        )
    }

    /// Probes what ffmpeg made, checks it as the backend will, and moves it to `output`.
    private func keep(_ temporary: String, as output: String, bytes: Int) async throws(VideoError) -> TranscodedClip {
        let made = try await probeOutput(temporary)
        let problems = StoryClipRules.problems(made, bytes: bytes, limits: limits)
        guard problems.isEmpty, let clip = made.clip, let video = clip.video else {
            logger.error("transcoded clip fails the story check", fields: ["problems": problems.joined(separator: "; ")])
            throw Self.damaged
        }
        guard rename(temporary, output) == 0 else {
            throw VideoError(.damaged, "The processed clip could not be saved on the server (\(String(cString: strerror(errno)))).")
        }
        return TranscodedClip(
            path: output, width: video.displayWidth, height: video.displayHeight, durationMs: Int((clip.duration * 1000).rounded()), bytes: bytes)
    }

    /// An empty file with a fresh name in `output`'s directory (so the final rename stays on one file system),
    /// hidden by its leading dot.
    private func reserveTemporaryFile(beside output: String) throws(VideoError) -> String {
        let url = URL(fileURLWithPath: output)
        for _ in 0..<8 {
            let name = ".\(url.lastPathComponent).\(UInt64.random(in: 0...UInt64.max)).part"
            let path = url.deletingLastPathComponent().appendingPathComponent(name).path
            let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o644)
            if descriptor >= 0 {
                close(descriptor)
                return path
            }
            guard errno == EEXIST else { break }
        }
        throw VideoError(.damaged, "The processed clip could not be saved on the server (\(String(cString: strerror(errno)))).")
    }
}

/// Progress that only goes forward, however the tries and ffmpeg's lines fall.
private final class Monotonic: Sendable {
    private let callback: @Sendable (Double) -> Void
    private let reported = Mutex<Double>(-1)

    init(_ callback: @escaping @Sendable (Double) -> Void) { self.callback = callback }

    func report(_ fraction: Double) {
        let forward = reported.withLock { last in
            guard fraction > last else { return false }
            last = fraction
            return true
        }
        if forward { callback(fraction) }
    }
}
