import RateLimits
import Testing

/// The counting core of every rate limit, driven by the time it is given.
@Suite struct WindowCountsTests {
    @Test("a key at its limit waits until its window ends; another key and a later window are free")
    func limitAndWindow() {
        var counts = WindowCounts(limit: 2, window: 60)
        counts.record(["ip:a"], now: 100)
        #expect(counts.wait(for: ["ip:a"], now: 100) == nil)
        counts.record(["ip:a"], now: 110)
        #expect(counts.wait(for: ["ip:a"], now: 120) == 40, "the window started at the first event")
        #expect(counts.wait(for: ["ip:b"], now: 120) == nil)
        #expect(counts.wait(for: ["ip:a"], now: 160) == nil, "a new window")
        counts.record(["ip:a"], now: 160)
        #expect(counts.wait(for: ["ip:a"], now: 161) == nil, "counting afresh")
    }

    @Test("with several keys the longest wait wins, and one event counts against each")
    func severalKeys() {
        var counts = WindowCounts(limit: 1, window: 60)
        counts.record(["ip:a"], now: 0)
        counts.record(["user:maya"], now: 30)
        #expect(counts.wait(for: ["ip:a", "user:maya"], now: 40) == 50)
        counts.record(["ip:c", "user:ben"], now: 40)
        #expect(counts.wait(for: ["ip:c"], now: 41) == 59)
        #expect(counts.wait(for: ["user:ben"], now: 41) == 59)
    }

    @Test("past the sweep threshold, keys whose window has ended are dropped; live ones stay")
    func sweep() {
        var counts = WindowCounts(limit: 5, window: 60)
        for index in 0..<WindowCounts.sweepThreshold { counts.record(["ip:\(index)"], now: 0) }
        #expect(counts.trackedKeys == WindowCounts.sweepThreshold)
        counts.record(["ip:late"], now: 50)
        #expect(counts.trackedKeys == WindowCounts.sweepThreshold + 1, "nothing has ended yet")
        counts.record(["ip:later"], now: 100)
        #expect(counts.trackedKeys == 2, "only the two whose windows are still open")
    }

    @Test("a limit or window below one is taken as one")
    func floors() {
        let counts = WindowCounts(limit: 0, window: 0)
        #expect(counts.limit == 1 && counts.window == 1)
    }
}
