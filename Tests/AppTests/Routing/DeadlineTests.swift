import Testing

@testable import App

struct DeadlineTests {
    struct TooSlow: Error {}

    @Test("work that finishes in time gives its value")
    func inTime() async throws {
        let value = try await withDeadline(.seconds(5), timeout: { TooSlow() }) { 42 }
        #expect(value == 42)
    }

    @Test("work stuck past the deadline gets the timeout error at the deadline, without waiting for the work")
    func late() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        await #expect(throws: TooSlow.self) {
            try await withDeadline(.milliseconds(100), timeout: { TooSlow() }) {
                // Ignores cancellation, like a blocking I/O call would.
                try? await Task.sleep(for: .seconds(2))
                return 1
            }
        }
        #expect(clock.now - start < .seconds(1))
    }

    @Test("the work's own error comes through")
    func failing() async throws {
        struct Broken: Error {}
        await #expect(throws: Broken.self) {
            try await withDeadline(.seconds(5), timeout: { TooSlow() }) { () async throws -> Int in throw Broken() }
        }
    }
}
