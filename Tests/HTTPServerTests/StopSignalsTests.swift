import Foundation
import Testing

@testable import HTTPServer

@Suite struct StopSignalsTests {
    @Test("a stop signal that arrives before anyone waits is kept: wait() then returns at once")
    func signalBeforeWaitIsKept() async throws {
        let signals = StopSignals([SIGWINCH])
        // Dispatch arms the source shortly after it is made; the server's start-up takes far longer than this.
        try await Task.sleep(for: .milliseconds(300))
        kill(getpid(), SIGWINCH)
        try await Task.sleep(for: .milliseconds(200))

        let returned = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await signals.wait()
                return true
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(5))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }

        #expect(returned, "the signal sent before wait() ended the wait")
    }
}
