public import ATProto
import Foundation
import Storage

/// The household's accounts: who they are and what role each has. Every other area resolves a handle or DID here.
public final class AccountStore: Sendable {
    let database: Database

    init(database: Database) { self.database = database }

    /// - Parameter role: `member`, `guest`, or `owner` for the household's owner (the demo household's first member).
    public func createAccount(handle: String, did: DID = LocalDID.mint(), role: AccountRole = .member, now: UTCTime) throws -> Account {
        let account = Account(did: did, handle: try Handle(handle).rawValue, createdAt: now.iso8601, role: role)
        try database.write {
            try $0.execute(
                "INSERT INTO accounts (did, handle, created_at, role) VALUES (?, ?, ?, ?)",
                [account.did.rawValue, account.handle, account.createdAt, account.role.rawValue])
        }
        return account
    }

    public func accountCount() throws -> Int {
        try database.read { try $0.queryOne("SELECT COUNT(*) AS n FROM accounts")?.int("n") ?? 0 }
    }

    /// Finds an account by DID or handle.
    public func account(_ actor: String) throws -> Account? {
        let row = try database.read {
            try $0.queryOne(
                "SELECT did, handle, created_at, role, disabled_at FROM accounts WHERE did = ? OR handle = ?", [actor, actor.lowercased()])
        }
        guard let row, let did = row.string("did").flatMap(DID.parse) else { return nil }
        return Account(
            did: did, handle: row.string("handle") ?? did.rawValue, createdAt: row.string("created_at") ?? "",
            role: AccountRole(stored: row.string("role")), isDisabled: row.string("disabled_at") != nil)
    }

    /// `uri` with a handle authority replaced by its account's DID; nil when no account has that name.
    func canonical(_ uri: ATURI) throws -> ATURI? {
        try account(uri.authority).map { ATURI(authority: $0.did.rawValue, collection: uri.collection, rkey: uri.rkey) }
    }

    public func isOwner(_ did: String) throws -> Bool { try role(of: did) == .owner }

    /// The role of the account `did`; nil when there is no such account.
    public func role(of did: String) throws -> AccountRole? {
        try database.read {
            try $0.queryOne("SELECT role FROM accounts WHERE did = ?", [did]).map { AccountRole(stored: $0.string("role")) }
        }
    }
}
