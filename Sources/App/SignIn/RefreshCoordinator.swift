import HatkClient

/// Makes sure one session never refreshes twice at once: concurrent requests of the same session
/// wait for the refresh already in flight and share its result.
actor RefreshCoordinator {
    private var inFlight: [String: Task<TokenSet, any Error>] = [:]

    func refresh(sessionID idHash: String, _ work: @escaping @Sendable () async throws -> TokenSet) async throws -> TokenSet {
        if let running = inFlight[idHash] { return try await running.value }
        let task = Task { try await work() }
        inFlight[idHash] = task
        defer { inFlight[idHash] = nil }
        return try await task.value
    }
}
