import Foundation
import HTTPServer
import Logging
import Video

/// A clip a client uploaded, checked to be what grain-stories makes, with its first frame for the posters.
struct CheckedClip: Sendable {
    var durationMs: Int
    /// The first frame, as PNG bytes, for the image pipeline.
    var poster: [UInt8]
}

extension EmbeddedBackend {
    /// Checks an uploaded MP4 with ffprobe (an H.264/AAC story clip within the limits, carrying no location) and
    /// takes its first frame with ffmpeg, both in bounded child processes. The bytes wait in a file of their own
    /// under `temporary`, removed whatever happens.
    static func check(clip bytes: [UInt8], with clips: ClipProcessor, temporary: String) async -> Result<CheckedClip, VideoError> {
        let path = temporary + "/clip-" + UUID().uuidString + ".mp4"
        defer { unlink(path) }
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes), attributes: [.posixPermissions: 0o600]) else {
            return .failure(VideoError(.overLimits, "The server could not keep the clip to check it; nothing was stored"))
        }
        do {
            let probed = try await clips.checkStoryClip(path)
            // The front strips every tag; a clip from another client that still says where it was filmed would
            // publish the place to everyone who can download it.
            guard probed.location == nil else {
                return .failure(VideoError(.notOurFormat, "The clip carries the place it was filmed; remove its metadata before uploading"))
            }
            let poster = try await clips.posterFrame(path)
            return .success(CheckedClip(durationMs: Int((probed.duration * 1000).rounded()), poster: poster))
        } catch {
            return .failure(error)
        }
    }

    /// hatk's error shape for a clip that was not stored.
    static func refusal(_ error: VideoError) -> Response {
        switch error.kind {
        case .busy:
            var response = XRPC.error(.serviceUnavailable, error: "ServerBusy", message: error.description)
            response.headers["Retry-After"] = "5"
            return response
        case .tooLarge:
            return XRPC.error(.payloadTooLarge, error.description)
        case .overLimits:
            log.warning("uploadBlob: a clip went over its child's limits: \(error)")
            return XRPC.error(.badRequest, error.description)
        default:
            return XRPC.error(.badRequest, error.description)
        }
    }
}
