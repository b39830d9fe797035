import Foundation
import Testing

@testable import Video

@Suite struct ProbeTests {
    /// The error `probe` throws for `path`, nil when it accepts the clip.
    static func refusal(_ path: String, _ processor: ClipProcessor = ClipProcessor(child: .unniced)) async -> VideoError? {
        do throws(VideoError) {
            _ = try await processor.probe(path)
            return nil
        } catch { return error }
    }

    /// The phone's HLG clip: HEVC Main 10, HLG, BT.2020, turned 90° clockwise, with its location and sound.
    @Test func readsTheHLGClip() async throws {
        let clip = try await ClipProcessor(child: .unniced).probe(try await ClipFixtures.hlgPortrait())
        let video = try #require(clip.video)
        #expect(clip.container.contains("mov"))
        #expect(abs(clip.duration - 20) < 0.1)
        #expect(video.codec == "hevc" && video.profile == "Main 10" && video.pixelFormat == "yuv420p10le")
        #expect(video.width == 1920 && video.height == 1080 && video.rotation == 90)
        #expect(video.transfer == "arib-std-b67" && video.primaries == "bt2020" && video.matrix == "bt2020nc" && video.isHDR)
        #expect(clip.audioCodec == "aac")
        let location = try #require(clip.location)
        #expect(abs(location.latitude - 48.8584) < 1e-6 && abs(location.longitude - 2.2945) < 1e-6)
    }

    /// A silent VP9 WebM is read, without sound.
    @Test func readsASilentWebM() async throws {
        let clip = try await ClipProcessor(child: .unniced).probe(try await ClipFixtures.silentVP9())
        #expect(clip.video?.codec == "vp9" && clip.audioCodec == nil && clip.container == "matroska,webm")
    }

    /// Half a file and its first kilobyte are refused as damaged, naming what to do.
    @Test func refusesTruncatedFiles() async throws {
        for path in [try await ClipFixtures.truncatedHalf(), try await ClipFixtures.firstKilobyte()] {
            let error = try #require(await Self.refusal(path))
            #expect(error.kind == .damaged)
            #expect(error.description.hasPrefix("This clip could not be read: the file seems damaged or incomplete"))
        }
    }

    /// A file declaring 20000 × 20000 is refused for its picture size by the probe, before anything decodes it.
    @Test func refusesAHugePicture() async throws {
        let error = try #require(await Self.refusal(try await ClipFixtures.declares20000Square()))
        #expect(error.kind == .tooManyPixels)
        #expect(error.description.contains("8192 × 8192"))
    }

    /// A three-hour clip is refused as too long from its header alone (the bound is generous: a busy machine must not
    /// fail it, and decoding three hours would take far longer).
    @Test func refusesThreeHoursQuickly() async throws {
        let path = try await ClipFixtures.threeHours()
        let clock = ContinuousClock()
        let started = clock.now
        let error = try #require(await Self.refusal(path))
        #expect(clock.now - started < .seconds(30))
        #expect(error.kind == .tooLong)
        #expect(error.description.contains("3 h 0 min") && error.description.contains("10 minutes"))
    }

    /// A file over `maxInputBytes` is refused from its size, without running ffprobe (here, one that cannot run).
    @Test func refusesTooLargeWithoutRunningFFprobe() async throws {
        var limits = VideoLimits()
        limits.maxInputBytes = 1_000
        let processor = ClipProcessor(limits: limits, child: .unniced, ffprobe: "/nonexistent/ffprobe")
        let error = try #require(await Self.refusal(try await ClipFixtures.portraitWithSound(), processor))
        #expect(error.kind == .tooLarge)
        #expect(error.description.contains("the largest accepted is 1 KB"))
    }

    /// A clip in a codec the server does not read is refused naming the codec and what is accepted.
    @Test func refusesAnUnreadCodec() async throws {
        let path = ClipFixtures.outputDirectory() + "/mjpeg.mov"
        try await ClipFixtures.ffmpeg(["-f", "lavfi", "-i", "color=s=32x32:d=0.2", "-c:v", "mjpeg", path])
        let error = try #require(await Self.refusal(path))
        #expect(error.kind == .unsupportedCodec)
        #expect(error.description.contains("mjpeg") && error.description.contains("H.264, HEVC"))
    }

    /// Sound alone is refused as having no video.
    @Test func refusesSoundAlone() async throws {
        let path = ClipFixtures.outputDirectory() + "/sound.m4a"
        try await ClipFixtures.ffmpeg(["-f", "lavfi", "-i", "sine=d=1", "-c:a", "aac", "-f", "mp4", path])
        let error = try #require(await Self.refusal(path))
        #expect(error.kind == .noVideoStream)
        #expect(error.description.hasPrefix("This file has no video in it"))
    }

    /// What is not a regular file (a directory, a missing path) is refused without being opened.
    @Test func refusesWhatIsNotAFile() async throws {
        #expect(await Self.refusal(ClipFixtures.outputDirectory())?.kind == .damaged)
        #expect(await Self.refusal("/nonexistent/clip.mp4")?.kind == .damaged)
    }
}
