import ATProto
import App
import AuthServer
import Backend
import Foundation
import Lexicon

/// The front's view of the embedded household: accounts in the backend's store, passwords in the authorization
/// server, the setup code in the data directory.
struct EmbeddedHousehold: HouseholdDirectory {
    let backend: EmbeddedBackend
    let authServer: AuthServer
    let handleDomain: String
    let setupCode: SetupCode

    func needsOwner() throws -> Bool { try backend.store.accounts.accountCount() == 0 }

    func isSetupCode(_ code: String) throws -> Bool { try setupCode.matches(code) }

    func role(of did: String) throws -> HouseholdRole? {
        try backend.store.accounts.role(of: did).flatMap { HouseholdRole(rawValue: $0.rawValue) }
    }

    func createOwner(_ member: NewMember, now: UTCTime) async throws -> String {
        let account = try translated { try backend.store.household.createOwner(handle: handle(for: member.name), now: now) }
        try await finish(account, member, now: now)
        setupCode.remove()
        return account.handle
    }

    func createInvite(by did: String, role: HouseholdRole, now: UTCTime) throws -> String {
        guard let did = DID.parse(did), let role = AccountRole(rawValue: role.rawValue) else { throw HouseholdError.inviteInvalid }
        return try backend.store.household.createInvite(by: did, role: role, now: now)
    }

    func inviteRole(_ token: String, now: UTCTime) throws -> HouseholdRole? {
        try backend.store.household.inviteRole(token, now: now).flatMap { HouseholdRole(rawValue: $0.rawValue) }
    }

    func acceptInvite(_ token: String, member: NewMember, now: UTCTime) async throws -> String {
        let account = try translated { try backend.store.household.acceptInvite(token, handle: handle(for: member.name), now: now) }
        try await finish(account, member, now: now)
        return account.handle
    }

    /// Adds an account from the command line (`users add`): the first one becomes the owner.
    func add(_ member: NewMember, now: UTCTime) async throws -> String {
        if try needsOwner() { return try await createOwner(member, now: now) }
        let account = try translated { try backend.store.accounts.createAccount(handle: handle(for: member.name), now: now) }
        try await finish(account, member, now: now)
        return account.handle
    }

    func handle(for name: String) -> String { "\(name).\(handleDomain)" }

    /// Gives a fresh account its profile and password.
    func finish(_ account: Account, _ member: NewMember, now: UTCTime) async throws {
        let trimmed = member.displayName.trimmingCharacters(in: .whitespaces)
        let profile = ProfileRecord(displayName: trimmed.isEmpty ? nil : String(trimmed.prefix(64)), createdAt: now.iso8601)
        try backend.store.records.putRecord(
            did: account.did, collection: ProfileRecord.collection, rkey: "self", value: try JSONValue(encoding: profile), now: now)
        try await authServer.setPassword(member.password, for: account.did)
    }

    /// The store's refusals in the front's words.
    func translated<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as BackendStore.HouseholdError {
            switch error {
            case .alreadySetUp: throw HouseholdError.alreadySetUp
            case .inviteInvalid: throw HouseholdError.inviteInvalid
            case .nameTaken: throw HouseholdError.nameTaken
            case .notOwner: throw HouseholdError.notOwner
            }
        }
    }
}
