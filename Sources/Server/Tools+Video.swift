import Foundation
import Video

extension Tools {
    /// Makes IN into a story's MP4 at OUT exactly as an upload would be (probe, the 15 seconds from `start`, the same
    /// child limits), describes the result in one JSON line, and writes the ffmpeg command line it ran to standard
    /// error as `ffmpeg-argv: [...]`, so a benchmark can run the same command alone.
    public static func processVideo(input: String, output: String, start: Double) async throws -> String {
        let clips = ClipProcessor()
        let probed = try await clips.probe(input)
        let argv = clips.transcodeArguments(input, probed: probed, start: start, to: output)
        let encoded = try JSONSerialization.data(withJSONObject: argv, options: [.withoutEscapingSlashes])
        FileHandle.standardError.write(Data("ffmpeg-argv: ".utf8) + encoded + Data("\n".utf8))
        let started = ContinuousClock.now
        let clip = try await clips.transcode(input, probed: probed, start: start, to: output)
        let elapsed = ContinuousClock.now - started
        let line: [String: Any] = [
            "width": clip.width, "height": clip.height, "durationMs": clip.durationMs, "bytes": clip.bytes,
            "seconds": Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
        ]
        let json = try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys])
        return String(decoding: json, as: UTF8.self)
    }
}
