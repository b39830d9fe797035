import ATProto
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

extension BlobHandler {
    /// `uploadBlob` of a clip: its body (already a file beside the blobs) is renamed to a file of its own, checked
    /// by ffprobe, its poster taken by ffmpeg (both in bounded child processes: the bytes came from a client, and no
    /// decoder runs on them in this process), and then renamed into place. Its bytes are never read into memory but
    /// to hash them; the file is removed whatever happens.
    func uploadClip(_ body: BodyContent, viewer: DID, with clips: ClipProcessor) async throws -> Response {
        let path = files.temporary + "/clip-" + UUID().uuidString + AtomicFile.temporarySuffix
        defer { unlink(path) }
        let unkept = XRPC.error(.internalServerError, error: "InternalServerError", message: "The clip could not be kept; nothing was stored")
        do {
            switch body {
            case .file(let file): try file.persist(to: path)
            case .bytes(let bytes): try AtomicFile.write(bytes, to: path, temporaryDirectory: files.temporary)
            }
        } catch {
            log.error("uploadBlob: \(error)")
            return unkept
        }
        let checked: CheckedClip
        switch await Self.check(clipAt: path, with: clips) {
        case .success(let clip): checked = clip
        case .failure(let error): return Self.refusal(error)
        }
        let identity: (cid: String, size: Int)
        do { identity = try files.identity(ofFileAt: path) } catch {
            log.error("uploadBlob: \(error)")
            return unkept
        }
        return try await storeBlob(
            viewer: viewer, size: identity.size, cid: { identity.cid },
            recorded: { rows, cid in try rows.recordClip(cid: cid, durationMs: checked.durationMs) }
        ) { files in
            try files.store(clipAt: path, identity: identity, poster: checked.poster)
        }
    }

    /// Checks the MP4 at `path` with ffprobe (an H.264/AAC story clip within the limits, carrying no location) and
    /// takes its first frame with ffmpeg.
    static func check(clipAt path: String, with clips: ClipProcessor) async -> Result<CheckedClip, VideoError> {
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
