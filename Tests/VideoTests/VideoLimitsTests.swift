import Testing

@testable import Video

@Suite struct VideoLimitsTests {
    @Test func storiesAreFifteenSecondsUnderTheLexiconsSize() {
        let limits = VideoLimits()
        #expect(limits.storySeconds == 15)
        #expect(limits.maxOutputBytes == 5_000_000)
    }
}
