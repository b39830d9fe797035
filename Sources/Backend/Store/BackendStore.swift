public import Storage

/// `backend.sqlite`, the embedded backend's accounts, records and blob ownership, opened once and read by area: each
/// store holds the database and only what its area needs, so `store.stories.activeStories(…)` can be read alone.
public final class BackendStore: Sendable {
    /// The one connection pool every area shares (tests and tools reach SQL through it).
    public let database: Database
    public let accounts: AccountStore
    public let household: HouseholdStore
    public let members: MemberStore
    public let records: RecordStore
    public let blobs: BlobRowStore
    public let stories: StoryStore
    public let memories: MemoryStore
    public let social: SocialStore
    public let privateState: PrivateStateStore
    public let moderation: ModerationStore
    public let shares: ShareStore
    public let screens: ScreenStore

    public init(path: String) throws {
        database = try Database(path: path)
        accounts = AccountStore(database: database)
        household = HouseholdStore(database: database)
        members = MemberStore(database: database, accounts: accounts)
        records = RecordStore(database: database, accounts: accounts)
        blobs = BlobRowStore(database: database)
        stories = StoryStore(database: database, accounts: accounts)
        memories = MemoryStore(database: database)
        social = SocialStore(database: database)
        privateState = PrivateStateStore(database: database)
        moderation = ModerationStore(database: database, accounts: accounts)
        shares = ShareStore(database: database)
        screens = ScreenStore(database: database)
        try database.migrate(Schema.migrations)
    }

    /// A cache of answers made from this store, emptied by its next write (the photos' fast path keeps its prepared
    /// answers in one).
    public func untilNextWrite<Key, Value>(capacity: Int) -> UntilNextWrite<Key, Value> {
        UntilNextWrite(database: database, capacity: capacity)
    }

    /// The schema version this binary's migrations bring `backend.sqlite` to.
    public static var schemaVersion: Int { Schema.migrations.count }

    /// Merges the write-ahead log into `backend.sqlite` (a clean stop calls this).
    public func checkpoint() throws { try database.checkpoint() }

    /// A trivial read, for the health check: the database opens and answers.
    public func checkReadable() throws {
        _ = try database.read { try $0.queryOne("SELECT COUNT(*) AS n FROM sqlite_master") }
    }
}
