import ATProto
import Crypto
import Foundation
import Logging
import Storage
import Synchronization
import Workers

/// The accounts' password hashes (`passwords`) and the threads they are computed on: setting a password, checking
/// a typed one, and resolving the name a member typed to one account.
final class PasswordStore: Sendable {
    let database: Database
    let accounts: any AccountDirectory
    /// The cost of new hashes; a stored hash weaker than this is redone at the account's next sign-in.
    let parameters: PasswordHash.Parameters
    /// Where every password hash is computed: off the shared pool, since one takes a few hundred milliseconds.
    let work: WorkerPool
    let clock: @Sendable () -> UTCTime
    /// A hash checked when the username is unknown, so that a miss costs as much as a wrong password.
    private let decoyHash = Mutex<String?>(nil)

    init(
        database: Database, accounts: any AccountDirectory, parameters: PasswordHash.Parameters, work: WorkerPool,
        clock: @escaping @Sendable () -> UTCTime
    ) {
        self.database = database
        self.accounts = accounts
        self.parameters = parameters
        self.work = work
        self.clock = clock
    }

    /// What checking a typed password found.
    enum PasswordCheck: Sendable, Equatable {
        case verified(DID)
        case wrong
        /// Every hashing thread is busy and the queue is full: try again shortly.
        case busy
    }

    /// Sets (or replaces) an account's password, hashed on the password workers, and signs it out everywhere.
    /// - Throws: `WorkerPool.Busy` when the hashing queue is full.
    func setPassword(_ password: String, for did: DID) async throws {
        guard !password.isEmpty else { throw AuthServerError("the password is empty") }
        let parameters = parameters
        let hash = try await work.run { try PasswordHash.hash(password, parameters: parameters) }
        try storePassword(hash: hash, for: did)
    }

    func storePassword(hash: String, for did: DID) throws {
        guard try accounts.account(did: did) != nil else {
            throw AuthServerError("no household account with DID \(did)")
        }
        let now = clock().unixSeconds
        try database.write { connection in
            try connection.execute(
                "INSERT OR REPLACE INTO passwords (did, hash, updated_at) VALUES (?, ?, ?)", [did.rawValue, hash, now])
            try connection.execute("UPDATE grants SET revoked = 1 WHERE did = ?", [did.rawValue])
        }
    }

    func hasPassword(for did: DID) throws -> Bool {
        try database.read { connection in
            try connection.queryOne("SELECT 1 AS yes FROM passwords WHERE did = ?", [did.rawValue]) != nil
        }
    }

    /// Whether `password` is the account's password (checked on the hashing threads, like a sign-in).
    func isPassword(_ password: String, of did: DID) async -> Bool {
        guard let account = try? accounts.account(did: did) else { return false }
        return await checkPassword(password, for: account) == .verified(did)
    }

    /// What people type: surrounding spaces and a leading `@` removed, lower case.
    static func normalizedUsername(_ username: String) -> String {
        var name = username.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if name.hasPrefix("@") { name.removeFirst() }
        return name
    }

    /// The one account a sign-in name refers to: a DID, a full handle, or a handle's first label ("maya" for
    /// `maya.home.test`) when exactly one account with a password has it. All three forms give the same
    /// ``DirectoryAccount``, so everything keyed on the result (limits, grants) counts one account once.
    /// - Parameter disabled: find the account among those the owner has disabled instead (for the message after a
    ///   right password).
    func resolveAccount(username: String, disabled: Bool = false) throws -> DirectoryAccount? {
        let name = Self.normalizedUsername(username)
        guard !name.isEmpty, name.utf8.count <= 253 else { return nil }
        let byDID = { (did: DID) throws -> DirectoryAccount? in
            disabled ? try self.accounts.disabledAccount(did: did) : try self.accounts.account(did: did)
        }
        if name.hasPrefix("did:") {
            return try DID.parse(name).flatMap(byDID)
        }
        if name.contains(".") {
            return disabled ? try accounts.disabledAccount(handle: name) : try accounts.account(handle: name)
        }
        let dids = try database.read { connection in
            try connection.query("SELECT did FROM passwords").compactMap { $0.string("did").flatMap(DID.parse) }
        }
        let matches = try dids.compactMap(byDID).filter { $0.shortName == name }
        return matches.count == 1 ? matches[0] : nil
    }

    /// Checks `password` for `account` on the hashing threads. An unknown account costs one hash as well, so
    /// timing does not tell which usernames exist. A right password whose stored hash is weaker than today's
    /// parameters is hashed again and stored, without signing the account out anywhere.
    func checkPassword(_ password: String, for account: DirectoryAccount?) async -> PasswordCheck {
        let stored = account.flatMap { account in
            try? database.read { connection in
                try connection.queryOne("SELECT hash FROM passwords WHERE did = ?", [account.did.rawValue])?
                    .string("hash")
            }
        }
        let parameters = parameters
        let outcome: (matches: Bool, rehashed: String?)
        do {
            outcome = try await work.run { [self] in
                guard let stored else {
                    _ = PasswordHash.verify(password, against: decoy())
                    return (false, nil)
                }
                guard PasswordHash.verify(password, against: stored) else { return (false, nil) }
                guard PasswordHash.parameters(of: stored)?.isAtLeast(parameters) != true else { return (true, nil) }
                return (true, try? PasswordHash.hash(password, parameters: parameters))
            }
        } catch {
            return .busy
        }
        guard outcome.matches, let account, let stored else { return .wrong }
        if let rehashed = outcome.rehashed {
            let now = clock().unixSeconds
            do {
                // Only if the hash is still the one just checked: a password changed meanwhile wins.
                try database.write { connection in
                    try connection.execute(
                        "UPDATE passwords SET hash = ?, updated_at = ? WHERE did = ? AND hash = ?",
                        [rehashed, now, account.did.rawValue, stored])
                }
            } catch {
                log.error("a stronger password hash could not be stored: \(error)")
            }
        }
        return .verified(account.did)
    }

    /// Forgets a removed account's password and revokes its grants, in one transaction.
    func forget(_ did: DID) throws {
        try database.write { connection in
            try connection.execute("UPDATE grants SET revoked = 1 WHERE did = ?", [did.rawValue])
            try connection.execute("DELETE FROM passwords WHERE did = ?", [did.rawValue])
        }
    }

    /// A hash of a random password with the configured cost, made once (on a hashing thread).
    private func decoy() -> String {
        if let hash = decoyHash.withLock({ $0 }) { return hash }
        let hash = (try? PasswordHash.hash(SecureRandom.token(), parameters: parameters)) ?? ""
        decoyHash.withLock { $0 = hash }
        return hash
    }
}
