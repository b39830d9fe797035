/// At most `count` bodies at once; the others wait their turn, first come first served. The deployment suite runs
/// its topologies two at a time: each brings up Chromium and one or two servers, on a two-core machine.
actor Lanes {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ count: Int) { free = count }

    /// Runs `body` once a lane is free, and frees it however `body` ends.
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if free > 0 {
            free -= 1
        } else {
            await withCheckedContinuation { waiting.append($0) }
        }
        defer {
            if waiting.isEmpty { free += 1 } else { waiting.removeFirst().resume() }
        }
        return try await body()
    }
}
