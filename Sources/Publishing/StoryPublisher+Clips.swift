public import ATProto
import Foundation
public import HatkClient
import Imaging
public import Video

extension StoryPublisher {
    /// Processes a clip (probe, the chosen 15 seconds transcoded, in ffmpeg child processes) and posts it.
    /// - Parameters:
    ///   - path: the clip as uploaded, on disk.
    ///   - scratch: a directory for the transcoded MP4, removed whatever happens.
    ///   - progress: told the phase and the fraction done, for the form's script.
    public func publishClip(
        at path: String, scratch: String, choices: Choices, as credentials: () async throws -> DPoPCredentials,
        now: @Sendable () -> UTCTime, progress: @escaping @Sendable (UploadProgress.Phase, Double) -> Void,
        storyLink: (ATURI) -> String
    ) async throws -> Published {
        guard let clips else { throw Refusal.unusableClip(Self.clipsNotHere) }
        let output = scratch + "/clip-" + UUID().uuidString + ".mp4"
        defer { unlink(output) }
        let clip: TranscodedClip
        let probed: ProbedClip
        do {
            probed = try await clips.probe(path)
            progress(.processing, 0)
            clip = try await clips.transcode(path, probed: probed, start: max(0, choices.clipStart), to: output) {
                progress(.processing, $0)
            }
        } catch {
            throw Refusal.unusableClip(error)
        }
        progress(.done, 1)
        // The clip goes up from its file: its megabytes never sit in this process.
        return try await post(
            Processed(
                media: .file(clip.path), mimeType: "video/mp4", width: clip.width, height: clip.height,
                gps: probed.location.map { GPSCoordinate(latitude: $0.latitude, longitude: $0.longitude) }),
            choices: choices, as: credentials, now: now, storyLink: storyLink)
    }

    /// What a server that posts to Grain says of a clip. Public so the form refuses a clip with the same sentence
    /// before its upload goes anywhere, rather than after.
    public static let clipsNotHere = VideoError(
        .unsupportedCodec, "Clips can be posted only in a household on this server: Grain accepts photos only. Choose a photo.")
}
