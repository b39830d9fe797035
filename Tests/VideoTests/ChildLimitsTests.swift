import Foundation
import Testing

@testable import Video

@Suite struct ChildLimitsTests {
    /// A transcode past its wall-clock limit is stopped as over the limits, and leaves no file behind.
    @Test func wallClockLimitStopsTheChildAndCleansUp() async throws {
        // The 1080p HEVC clip, which no machine transcodes in 0.2 s.
        let input = try await ClipFixtures.hlgPortrait()
        let probed = try await ClipProcessor(child: .unniced).probe(input)
        var child = ClipProcessor.ChildLimits()
        child.wallSeconds = 0.2
        let directory = ClipFixtures.outputDirectory()
        let error = await #expect(throws: VideoError.self) {
            _ = try await ClipProcessor(child: child.unniced).transcode(input, probed: probed, start: 0, to: directory + "/story.mp4")
        }
        #expect(error?.kind == .overLimits)
        #expect(error?.description.contains("took longer than the server allows") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
    }

    /// A transcode past its CPU time is stopped by SIGXCPU, which ffmpeg catches, as over the limits.
    @Test func cpuLimitStopsTheTranscode() async throws {
        let input = try await ClipFixtures.hlgPortrait()
        let probed = try await ClipProcessor(child: .unniced).probe(input)
        var child = ClipProcessor.ChildLimits().unniced
        child.cpuSeconds = 1
        let directory = ClipFixtures.outputDirectory()
        let error = await #expect(throws: VideoError.self) {
            _ = try await ClipProcessor(child: child).transcode(input, probed: probed, start: 0, to: directory + "/story.mp4")
        }
        #expect(error?.kind == .overLimits)
        #expect(error?.description.contains("more processor time than the server allows") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
    }

    /// Too little address space makes ffmpeg fail with a clean error; this process carries on.
    @Test func memoryLimitFailsTheChildNotTheServer() async throws {
        let input = try await ClipFixtures.portraitWithSound()
        let probed = try await ClipProcessor(child: .unniced).probe(input)
        var child = ClipProcessor.ChildLimits()
        child.memoryBytes = 64 << 20
        let directory = ClipFixtures.outputDirectory()
        let error = await #expect(throws: VideoError.self) {
            _ = try await ClipProcessor(child: child.unniced).transcode(input, probed: probed, start: 0, to: directory + "/story.mp4")
        }
        #expect(error?.kind == .overLimits)
        #expect(error?.description.contains("more memory than the server allows (64 MB)") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
    }

    /// With one slot and no queue, a second job while one runs is refused at once as busy; cancelling the first
    /// stops its child.
    @Test func secondJobIsBusy() async throws {
        let input = try await ClipFixtures.hlgPortrait()
        let processor = ClipProcessor(child: .unniced, slots: 1, waiting: 0)
        let probed = try await processor.probe(input)
        let directory = ClipFixtures.outputDirectory()
        let first = Task { () async throws(VideoError) -> TranscodedClip in
            try await processor.transcode(input, probed: probed, start: 0, to: directory + "/story.mp4")
        }
        while processor.gate.load.running == 0 { try await Task.sleep(for: .milliseconds(10)) }
        let error = await #expect(throws: VideoError.self) { _ = try await processor.probe(input) }
        #expect(error?.kind == .busy)
        #expect(error?.description.hasPrefix("Another clip is being processed") == true)
        first.cancel()
        let stopped = await first.result
        #expect(throws: VideoError.self) { try stopped.get() }
        #expect(processor.gate.load.running == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [])
    }
}
