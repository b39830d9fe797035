import FrontState

/// What the composition root does to `front.sqlite` for upgrades, clean stops and restores without the sealing
/// key. The front names the file in the data directory; `SessionStore` does the work.
extension Front {
    /// The schema version this binary's migrations bring `front.sqlite` to.
    public static var schemaVersion: Int { SessionStore.schemaVersion }

    /// Merges the write-ahead log into `front.sqlite` (a clean stop calls this, after `flush()`).
    public func checkpoint() throws { try (sessions as? SessionStore)?.checkpoint() }

    /// Removes the sessions and sign-ins in progress from `<dataDirectory>/front.sqlite` (sealed with the sealing
    /// key), keeping seen marks: for a restore whose key is lost.
    public static func forgetSealedState(dataDirectory: String) throws {
        try SessionStore.forgetSealedState(path: FrontStores.databasePath(in: dataDirectory))
    }

    /// Whether `<dataDirectory>/front.sqlite` holds a session or sign-in sealed with a key.
    public static func hasSealedState(dataDirectory: String) throws -> Bool {
        try SessionStore.hasSealedState(path: FrontStores.databasePath(in: dataDirectory))
    }
}
