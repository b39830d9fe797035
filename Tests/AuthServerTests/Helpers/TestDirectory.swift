import ATProto
import AuthServer
import Synchronization

/// A household directory in memory; accounts can be removed to test what happens to their tokens.
final class TestDirectory: AccountDirectory {
    private let accounts = Mutex<[DirectoryAccount]>([])
    private let disabled = Mutex<[DirectoryAccount]>([])

    /// Adds an account with a fresh DID.
    func add(handle: String) -> DID {
        let account = DirectoryAccount(did: LocalDID.mint(), handle: handle)
        accounts.withLock { $0.append(account) }
        return account.did
    }

    func remove(_ did: DID) {
        accounts.withLock { $0.removeAll { $0.did == did } }
    }

    /// Disables an account as the owner does: it no longer signs in, and is known as disabled.
    func disable(_ did: DID) {
        let account = accounts.withLock { list in list.first { $0.did == did } }
        remove(did)
        if let account { disabled.withLock { $0.append(account) } }
    }

    func disabledAccount(did: DID) throws -> DirectoryAccount? {
        disabled.withLock { list in list.first { $0.did == did } }
    }

    func disabledAccount(handle: String) throws -> DirectoryAccount? {
        disabled.withLock { list in list.first { $0.handle == handle } }
    }

    func account(did: DID) throws -> DirectoryAccount? {
        accounts.withLock { list in list.first { $0.did == did } }
    }

    func account(handle: String) throws -> DirectoryAccount? {
        accounts.withLock { list in list.first { $0.handle == handle } }
    }
}
