public import ATProto

/// The household's passwords, as the composition root sets and checks them; ``PasswordStore`` holds them.
extension AuthServer {
    /// Sets (or replaces) an account's password and signs it out everywhere. The hash runs on the password
    /// workers: at today's cost it takes a few hundred milliseconds, which must not hold a thread every other
    /// request needs.
    /// - Throws: `WorkerPool.Busy` when the hashing queue is full (the caller answers 503).
    public func setPassword(_ password: String, for did: DID) async throws {
        try await passwords.setPassword(password, for: did)
    }

    /// Whether the account can sign in.
    public func hasPassword(for did: DID) throws -> Bool {
        try passwords.hasPassword(for: did)
    }

    /// Whether `password` is the account's password (checked on the hashing threads, like a sign-in).
    public func isPassword(_ password: String, of did: DID) async -> Bool {
        await passwords.isPassword(password, of: did)
    }
}
