import ATProto
import Clocks
import TestSupport
import Testing

@Suite("MonotonicClock")
struct MonotonicClockTests {
    @Test("the continuous clock starts near zero, never goes back, and its sleep waits at least as long as asked")
    func continuousClock() async throws {
        let clock = MonotonicClock.continuous
        let first = clock.now()
        #expect(first >= .zero && first < .seconds(1))
        try await clock.sleep(.milliseconds(20))
        let second = clock.now()
        #expect(second - first >= .milliseconds(20))
        #expect(clock.now() >= second)
    }

    @Test("a test clock's monotonic side moves with it, and its sleep moves the clock instead of waiting")
    func testClockMovesBoth() async throws {
        let clock = TestClock(.fixture)
        let monotonic = clock.monotonic
        #expect(monotonic.now() == .zero)
        clock.advance(seconds: 90)
        #expect(monotonic.now() == .seconds(90))
        try await monotonic.sleep(.milliseconds(1500))
        #expect(monotonic.now() == .milliseconds(91_500))
        #expect(clock.now == UTCTime.fixture.adding(seconds: 91.5))
    }
}
