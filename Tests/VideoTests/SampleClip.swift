@testable import Video

/// A probed clip as a test describes it: 20 s of 1080p H.264 with AAC unless told otherwise.
func sampleClip(
    codec: String = "h264", width: Int = 1920, height: Int = 1080, rotation: Int = 0, fps: Double = 30, transfer: String = "bt709",
    primaries: String = "bt709", matrix: String = "bt709", duration: Double = 20, audio: String? = "aac"
) -> ProbedClip {
    ProbedClip(
        container: "mov,mp4,m4a,3gp,3g2,mj2", duration: duration,
        video: .init(
            codec: codec, profile: "High", width: width, height: height, rotation: rotation, pixelFormat: "yuv420p", framesPerSecond: fps,
            transfer: transfer, primaries: primaries, matrix: matrix),
        audioCodec: audio, location: nil)
}
