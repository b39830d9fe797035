import Testing

@testable import App

struct DeadlineTests {
    struct TooSlow: Error {}

    @Test("work that finishes in time gives its value")
    func inTime() async throws {
        let value = try await withDeadline(.seconds(5), timeout: { TooSlow() }) { 42 }
        #expect(value == 42)
    }

    @Test(
        "work stuck past the deadline gets the timeout error at the deadline, without waiting for the work",
        .timeLimit(.minutes(1)))
    func late() async throws {
        // The work ends only when the test opens the gate, after the deadline's answer came: had withDeadline waited
        // for the work, it would never answer (and the time limit fails the test). No wall-clock bound, so a busy
        // machine cannot fail it.
        let (gate, open) = AsyncStream<Void>.makeStream()
        await #expect(throws: TooSlow.self) {
            try await withDeadline(.milliseconds(100), timeout: { TooSlow() }) {
                for await _ in gate { break }
                return 1
            }
        }
        open.yield()
        open.finish()
    }

    @Test("the work's own error comes through")
    func failing() async throws {
        struct Broken: Error {}
        await #expect(throws: Broken.self) {
            try await withDeadline(.seconds(5), timeout: { TooSlow() }) { () async throws -> Int in throw Broken() }
        }
    }
}
