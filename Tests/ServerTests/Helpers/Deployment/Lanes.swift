/// At most `count` bodies at once, first come first served; an exclusive body runs alone. The deployment suite runs
/// its topologies two at a time (each brings up Chromium and one or two servers on a two-core machine), and a
/// topology that makes a network namespace alone: adding or removing its veth link is a network change to every
/// Chromium on the host, which drops their pages in flight (ERR_NETWORK_CHANGED).
actor Lanes {
    private let count: Int
    private var running = 0
    private var exclusive = false
    private var waiting: [(exclusive: Bool, continuation: CheckedContinuation<Void, Never>)] = []

    init(_ count: Int) { self.count = count }

    /// Runs `body` once it may, and lets the next ones in however `body` ends.
    func run<T: Sendable>(exclusive alone: Bool = false, _ body: @Sendable () async throws -> T) async throws -> T {
        if waiting.isEmpty, canStart(alone) {
            start(alone)
        } else {
            // `wake` starts it before resuming it.
            await withCheckedContinuation { waiting.append((alone, $0)) }
        }
        defer {
            running -= 1
            if alone { exclusive = false }
            wake()
        }
        return try await body()
    }

    private func canStart(_ alone: Bool) -> Bool { !exclusive && (alone ? running == 0 : running < count) }

    private func start(_ alone: Bool) {
        running += 1
        if alone { exclusive = true }
    }

    /// Starts the waiting bodies in order while they may; one that may not holds back those behind it.
    private func wake() {
        while let next = waiting.first, canStart(next.exclusive) {
            waiting.removeFirst()
            start(next.exclusive)
            next.continuation.resume()
        }
    }
}
