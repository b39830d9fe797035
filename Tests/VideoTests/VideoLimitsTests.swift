import Testing

@testable import Video

@Suite struct VideoLimitsTests {
    /// Stories are fifteen seconds under the lexicon's 5 MB.
    @Test func storiesAreFifteenSecondsUnderTheLexiconsSize() {
        let limits = VideoLimits()
        #expect(limits.storySeconds == 15)
        #expect(limits.maxOutputBytes == 5_000_000)
    }

    /// A file over the upload size is refused with its size and the limit in MB.
    @Test func namesSizeAndLimit() {
        #expect(
            throws: VideoError(.tooLarge, "This clip is 240 MB; the largest accepted is 200 MB. Trim it or record a shorter clip, then try again.")
        ) {
            try VideoLimits().checkInputSize(240_000_000)
        }
        #expect(throws: Never.self) { try VideoLimits().checkInputSize(200_000_000) }
    }

    /// A three-hour clip is refused naming its length and the ten-minute limit.
    @Test func namesLengthAndLimit() {
        let clip = sampleClip(duration: 10_800)
        #expect(
            throws: VideoError(.tooLong, "This clip is 3 h 0 min long; clips up to 10 minutes are accepted. Trim it on your phone and try again.")
        ) {
            try VideoLimits().check(clip)
        }
    }

    /// Each refusal has its kind: no video, an unknown or too-large picture, a codec the server does not read.
    @Test func refusesByKind() {
        func kind(_ clip: ProbedClip) -> VideoError.Kind? {
            do throws(VideoError) {
                try VideoLimits().check(clip)
                return nil
            } catch { return error.kind }
        }
        var silent = sampleClip()
        silent.video = nil
        #expect(kind(silent) == .noVideoStream)
        #expect(kind(sampleClip(width: 0, height: 0)) == .tooManyPixels)
        #expect(kind(sampleClip(width: 8193, height: 100)) == .tooManyPixels)
        #expect(kind(sampleClip(codec: "prores")) == .unsupportedCodec)
        #expect(kind(sampleClip(codec: "hevc", width: 7680, height: 4320, duration: 600)) == nil)
    }

    /// Sizes round up and limits down, lengths read as people say them.
    @Test func wordsSizesAndLengths() {
        #expect(Wording.bytes(200_400_000, roundingUp: true) == "201 MB")
        #expect(Wording.bytes(200_400_000, roundingUp: false) == "200 MB")
        #expect(Wording.bytes(1_500, roundingUp: false) == "1 KB")
        #expect(Wording.bytes(999, roundingUp: false) == "999 bytes")
        #expect(Wording.length(45) == "45 s")
        #expect(Wording.length(245) == "4 min 5 s")
        #expect(Wording.length(10_800) == "3 h 0 min")
        #expect(Wording.limit(600) == "10 minutes")
        #expect(Wording.limit(15) == "15 seconds")
        #expect(Wording.limit(0.5) == "0.5 seconds")
        #expect(Wording.memory(3 << 30) == "3 GB")
        #expect(Wording.memory(64 << 20) == "64 MB")
    }
}
