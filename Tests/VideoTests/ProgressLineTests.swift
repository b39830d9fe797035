import Testing

@testable import Video

@Suite struct ProgressLineTests {
    /// `out_time_us` and `out_time_ms` (also microseconds, despite the name) give the fraction of the clip written.
    @Test func readsOutputTime() {
        #expect(ProgressLine.fraction("out_time_us=7500000", totalSeconds: 15) == 0.5)
        #expect(ProgressLine.fraction("out_time_ms=3000000", totalSeconds: 15) == 0.2)
    }

    /// The fraction stays within 0...1, and other lines, `N/A` and a zero total give nothing.
    @Test func clampsAndIgnores() {
        #expect(ProgressLine.fraction("out_time_us=16000000", totalSeconds: 15) == 1)
        #expect(ProgressLine.fraction("out_time_us=-23220", totalSeconds: 15) == 0)
        #expect(ProgressLine.fraction("out_time_us=N/A", totalSeconds: 15) == nil)
        #expect(ProgressLine.fraction("out_time=00:00:07.500000", totalSeconds: 15) == nil)
        #expect(ProgressLine.fraction("progress=continue", totalSeconds: 15) == nil)
        #expect(ProgressLine.fraction("frame=12", totalSeconds: 15) == nil)
        #expect(ProgressLine.fraction("out_time_us=100", totalSeconds: 0) == nil)
    }
}
