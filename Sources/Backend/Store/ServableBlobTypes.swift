import Storage
import Synchronization

/// The MIME types of blobs the backend may serve, kept in memory so that a photo's request reads no database: what
/// `servableBlobMimeType` found, valid while the backend's database has committed nothing since. Any write empties
/// it (a delete, a hidden record, a removed member and everything else), so no path that could withdraw a photo can
/// forget to; between writes every photo is looked up once.
final class ServableBlobTypes: Sendable {
    private struct State {
        var commits: UInt64 = 0
        var types: [Key: String] = [:]
    }

    private struct Key: Hashable {
        let did: String
        let cid: String
    }

    /// Photos, not requests: a household's live stories and a screen's memories are a few hundred.
    static let capacity = 4096
    private let state = Mutex(State())
    private let database: Database

    init(database: Database) { self.database = database }

    /// The remembered type, or nil when it must be read (or is not servable).
    func type(did: String, cid: String) -> String? {
        let commits = database.commitCount
        return state.withLock { state in
            guard state.commits == commits else {
                state = State(commits: commits)
                return nil
            }
            return state.types[Key(did: did, cid: cid)]
        }
    }

    /// Remembers `type`, read from the database when its commit count was `commits`, unless a write came since.
    func remember(_ type: String, did: String, cid: String, readAt commits: UInt64) {
        state.withLock { state in
            guard state.commits == commits, database.commitCount == commits else { return }
            if state.types.count >= Self.capacity { state.types.removeAll() }
            state.types[Key(did: did, cid: cid)] = type
        }
    }
}
