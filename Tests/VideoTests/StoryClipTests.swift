import Foundation
import Testing

@testable import Video

@Suite struct StoryClipTests {
    static func refusal(_ path: String) async -> VideoError? {
        do throws(VideoError) {
            _ = try await ClipProcessor(child: .unniced).checkStoryClip(path)
            return nil
        } catch { return error }
    }

    /// What `transcode` made passes the backend's check, and its first frame is a PNG of its size.
    @Test func acceptsATranscodedClipAndMakesItsPoster() async throws {
        let (made, _) = try await TranscodeTests.transcode(try await ClipFixtures.portraitWithSound())
        let clip = try await ClipProcessor(child: .unniced).checkStoryClip(made.path)
        #expect(clip.video?.codec == "h264" && clip.audioCodec == "aac")
        let png = try await ClipProcessor(child: .unniced).posterFrame(made.path)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        // IHDR: width and height, big-endian, at bytes 16 and 20.
        let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }
        let height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
        #expect(width == made.width && height == made.height)
    }

    /// A VP9 WebM is refused, naming its container and codec.
    @Test func refusesWebM() async throws {
        let error = try #require(await Self.refusal(try await ClipFixtures.silentVP9()))
        #expect(error.kind == .notOurFormat)
        #expect(error.description.contains("not an MP4") && error.description.contains("vp9, not H.264"))
    }

    /// Subtitle and data streams are refused by name.
    @Test func refusesExtraStreams() async throws {
        let error = try #require(await Self.refusal(try await ClipFixtures.withSubtitlesAndData()))
        #expect(error.kind == .notOurFormat)
        #expect(error.description.contains("data and subtitle streams"))
    }

    /// An H.264 MP4 longer than a story is refused, naming its length and the limit.
    @Test func refusesOverLong() async throws {
        let error = try #require(await Self.refusal(try await ClipFixtures.twentySecondRamp()))
        #expect(error.kind == .notOurFormat)
        #expect(error.description.contains("it is 20 s long, longer than 15 seconds"))
    }

    /// A 1920-wide H.264 MP4 is refused for its picture size.
    @Test func refusesTooWide() async throws {
        let error = try #require(await Self.refusal(try await ClipFixtures.wideH264()))
        #expect(error.kind == .notOurFormat)
        #expect(error.description.contains("1920 × 1080, not within 1280"))
    }

    /// The rules themselves, on ffprobe's JSON: 60 fps, a second audio stream, Opus sound, 10-bit pixels, a cover.
    @Test func namesEveryProblem() throws {
        let json = """
            {"streams": [
              {"codec_type": "video", "codec_name": "h264", "profile": "High 10", "pix_fmt": "yuv420p10le", "width": 720, "height": 1280,
               "avg_frame_rate": "60/1"},
              {"codec_type": "video", "codec_name": "png", "width": 64, "height": 64, "disposition": {"attached_pic": 1}},
              {"codec_type": "audio", "codec_name": "opus"}, {"codec_type": "audio", "codec_name": "aac"}
            ],
            "format": {"format_name": "mov,mp4,m4a,3gp,3g2,mj2", "duration": "10.0"}}
            """
        let probe = try #require(ProbeOutput.parse(Array(json.utf8)))
        let problems = StoryClipRules.problems(probe, bytes: 6_000_000, limits: VideoLimits())
        #expect(
            problems == [
                "it is 6 MB, more than the 5 MB a story may be", "it has 2 video streams, not one",
                "its H.264 profile is High 10, not High, Main or Constrained Baseline", "its pixels are yuv420p10le, not yuv420p",
                "it has 60 frames per second, more than 30", "it has 2 sound streams, not one", "its sound is opus, not AAC",
            ])
    }
}
