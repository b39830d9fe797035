import ATProto
import AuthServer
import Backend
import Crypto
import Foundation
import Lexicon

extension Application {
    /// Adds a household account with a profile and a password; returns its handle.
    /// - Parameter password: the password; a generated one when nil (returned so it can be shown once).
    public func addAccount(name: String, displayName: String?, password: String?) throws -> (handle: String, password: String) {
        guard let household = front.household else {
            throw Command.UsageError(description: "accounts live in the embedded backend; this server uses --appview")
        }
        let checked = try HouseholdAdmin.checkName(name)
        let chosen = password ?? SecureRandom.token(byteCount: 12)
        let now = UTCTime.now
        // The first account of a household is its owner, whichever way it was made.
        let account =
            household.needsOwner
            ? try household.backend.store.createOwner(handle: household.handle(for: checked), now: now)
            : try household.backend.store.createAccount(handle: household.handle(for: checked), now: now)
        try household.finish(account, displayName: displayName ?? checked.capitalized, password: chosen, now: now)
        return (account.handle, chosen)
    }

    /// Known passwords for the demo household, so anyone trying the demo can sign in as a member.
    static func demoPassword(for handle: String) -> String {
        String(handle.prefix { $0 != "." }) + "-stories"
    }
}
