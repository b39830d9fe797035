import Foundation
import Testing

@testable import Video

@Suite struct TranscodeTests {
    /// Probes and transcodes `path` into a fresh directory, returning the clip and ffprobe's view of it.
    static func transcode(
        _ path: String, start: Double = 0, processor: ClipProcessor = ClipProcessor(child: .unniced),
        progress: @escaping @Sendable (Double) -> Void = { _ in }
    ) async throws -> (TranscodedClip, [String: Any]) {
        let probed = try await processor.probe(path)
        let output = ClipFixtures.outputDirectory() + "/story.mp4"
        let made = try await processor.transcode(path, probed: probed, start: start, to: output, progress: progress)
        return (made, try await ClipFixtures.ffprobe(output))
    }

    static func streams(_ probe: [String: Any], _ type: String) -> [[String: Any]] {
        (probe["streams"] as? [[String: Any]] ?? []).filter { $0["codec_type"] as? String == type }
    }

    /// The phone's 1080p HLG clip, turned 90°, becomes a 720 × 1280 H.264 High yuv420p BT.709 story of at most
    /// 15 s and 5 MB, upright with no rotation left, the index before the data, and no metadata; progress rises
    /// on the way and ends at 1.
    @Test func makesAStoryOfAPhonesHDRClip() async throws {
        let seen = Seen()
        let (made, probe) = try await Self.transcode(try await ClipFixtures.hlgPortrait()) { seen.add($0) }
        let fractions = seen.values
        #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $0 < $1 })
        #expect(fractions.last == 1)
        #expect(fractions.contains { $0 > 0 && $0 < 0.9 }, "progress \(fractions)")
        let video = try #require(Self.streams(probe, "video").first)
        #expect(video["codec_name"] as? String == "h264")
        #expect(video["profile"] as? String == "High")
        #expect(video["pix_fmt"] as? String == "yuv420p")
        #expect(video["color_transfer"] as? String == "bt709")
        #expect(video["color_primaries"] as? String == "bt709")
        #expect(video["color_space"] as? String == "bt709")
        #expect(video["width"] as? Int == 720 && video["height"] as? Int == 1280)
        #expect(video["side_data_list"] == nil)
        #expect((video["tags"] as? [String: String])?["rotate"] == nil)
        let fps = ProbeOutput.frameRate(video["avg_frame_rate"] as? String) ?? 99
        #expect(fps <= 30)
        let format = try #require(probe["format"] as? [String: Any])
        let duration = Double(format["duration"] as? String ?? "") ?? 99
        #expect(duration <= 15.05 && duration >= 14.9)
        #expect(made.width == 720 && made.height == 1280 && made.bytes < 5_000_000)
        #expect(abs(Double(made.durationMs) / 1000 - duration) < 0.01)
        #expect(Int(format["size"] as? String ?? "") == made.bytes)
        // Faststart: the index (moov) before the media data (mdat).
        let boxes = try ClipFixtures.topLevelBoxes(made.path)
        #expect(boxes.first == "ftyp")
        #expect((boxes.firstIndex(of: "moov") ?? .max) < (boxes.firstIndex(of: "mdat") ?? -1))
        // No location, creation time or encoder version: the container says only what an MP4 must.
        let formatTags = Set((format["tags"] as? [String: String] ?? [:]).keys)
        #expect(formatTags.isSubset(of: ["major_brand", "minor_version", "compatible_brands"]))
        for stream in probe["streams"] as? [[String: Any]] ?? [] {
            let tags = stream["tags"] as? [String: String] ?? [:]
            #expect(Set(tags.keys).isSubset(of: ["language", "handler_name", "vendor_id", "encoder"]))
            #expect(["VideoHandler", "SoundHandler", nil].contains(tags["handler_name"]))
            // libx264's name stays in the sample description ("Lavc libx264"), but no version.
            #expect(!(tags["encoder"] ?? "").contains("."), "encoder tag \(tags["encoder"] ?? "")")
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: made.path))
        #expect(bytes.range(of: Data("x264 - core".utf8)) == nil)
        #expect(bytes.range(of: Data("48.8584".utf8)) == nil)
        #expect(bytes.range(of: Data("Lavf".utf8)) == nil)
    }

    /// Tone-mapped HLG is about as bright, and as contrasted, as the same frames made as SDR: not washed out (grey
    /// and flat, as HDR shown as SDR looks) nor crushed. The frames are muted testsrc2, since tone-mapping on the
    /// brightest channel rightly darkens saturated colours that SDR cannot show.
    @Test func toneMapsHLGToSDRBrightness() async throws {
        let (made, _) = try await Self.transcode(try await ClipFixtures.mutedHLG())
        let toneMapped = try await ClipFixtures.luma(made.path)
        let reference = try await ClipFixtures.luma(try await ClipFixtures.mutedSDR())
        let brightness = toneMapped.mean / reference.mean
        let contrast = toneMapped.deviation / reference.deviation
        #expect(brightness > 0.8 && brightness < 1.15, "mean luma: tone-mapped \(toneMapped.mean), SDR \(reference.mean)")
        #expect(contrast > 0.8 && contrast < 1.25, "luma deviation: tone-mapped \(toneMapped.deviation), SDR \(reference.deviation)")
    }

    /// A portrait H.264 clip with mono AAC keeps its shape and gets stereo AAC-LC sound.
    @Test func keepsPortraitAndMakesStereoAAC() async throws {
        let (made, probe) = try await Self.transcode(try await ClipFixtures.portraitWithSound())
        #expect(made.width == 360 && made.height == 640)
        let audio = try #require(Self.streams(probe, "audio").first)
        #expect(audio["codec_name"] as? String == "aac" && audio["profile"] as? String == "LC" && audio["channels"] as? Int == 2)
    }

    /// A silent VP9 WebM makes a story with no sound stream at all.
    @Test func silentInputMakesSilentStory() async throws {
        let (made, probe) = try await Self.transcode(try await ClipFixtures.silentVP9())
        #expect(Self.streams(probe, "audio").isEmpty)
        #expect(Self.streams(probe, "video").first?["codec_name"] as? String == "h264")
        #expect(made.width == 320 && made.height == 180)
    }

    /// A 2 s clip at 60 frames a second stays 2 s long and comes down to 30 frames a second.
    @Test func shortClipKeepsItsLengthAtThirtyFPS() async throws {
        let (made, probe) = try await Self.transcode(try await ClipFixtures.twoSecondsAt60())
        #expect(abs(Double(made.durationMs) - 2000) < 60)
        let video = try #require(Self.streams(probe, "video").first)
        #expect(ProbeOutput.frameRate(video["avg_frame_rate"] as? String) == 30)
    }

    /// Starting at 10 s of a 20 s clip gives the last 10 s, from the frame shown at 10 s.
    @Test func honoursTheStart() async throws {
        let (made, _) = try await Self.transcode(try await ClipFixtures.twentySecondRamp(), start: 10)
        #expect(abs(Double(made.durationMs) - 10_000) < 150)
        // The ramp's luma is 16 + 10 × seconds: 116 at 10 s, 111 half a second before, 121 half a second after.
        let first = try await ClipFixtures.luma(made.path).mean
        #expect(abs(first - 116) < 3, "first frame's luma \(first)")
    }

    /// When even the second, lower bitrate cannot fit the limit, nothing is returned and nothing is left behind.
    @Test func neverReturnsAFileOverTheLimit() async throws {
        var limits = VideoLimits()
        limits.maxOutputBytes = 20_000
        let processor = ClipProcessor(limits: limits, child: .unniced)
        let input = try await ClipFixtures.twoSecondsAt60()
        let probed = try await processor.probe(input)
        let directory = ClipFixtures.outputDirectory()
        let error = await #expect(throws: VideoError.self) {
            _ = try await processor.transcode(input, probed: probed, start: 0, to: directory + "/story.mp4")
        }
        #expect(error?.kind == .tooLarge)
        #expect(error?.description.contains("smaller than 20 KB") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
    }
}
