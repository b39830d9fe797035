import ATProto
import App
import AuthServer
import Backend
import Crypto
import Foundation

extension Application {
    /// Why an account could not be added from the command line.
    public struct AccountError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Adds a household account with a profile and a password (`users add`); the first becomes the owner.
    /// - Parameter password: the password; a generated one when nil (returned so it can be shown once).
    public func addAccount(name: String, displayName: String?, password: String?) async throws -> (handle: String, password: String) {
        guard let backend, let authServer else {
            throw AccountError(description: "accounts live in the embedded backend; this server uses --appview")
        }
        let household = EmbeddedHousehold(
            backend: backend, authServer: authServer, handleDomain: configuration.handleDomain,
            setupCode: try SetupCode(dataDirectory: configuration.dataDirectory))
        let chosen = password ?? Self.randomPassword()
        do {
            let checked = try NewMember.checkName(name)
            let handle = try await household.add(
                NewMember(name: checked, displayName: displayName ?? checked.capitalized, password: chosen), now: clock())
            return (handle, chosen)
        } catch let error as HouseholdError {
            throw AccountError(description: error.description)
        } catch let error as NewMember.FieldError {
            throw AccountError(description: error.description)
        }
    }

    /// The setup code a person needs to create the owner at `/welcome`, while the household has no account.
    public func setupCodeIfNeeded() throws -> String? {
        guard let backend, try backend.store.accounts.accountCount() == 0 else { return nil }
        return try SetupCode(dataDirectory: configuration.dataDirectory).current()
    }

    /// Known passwords for the demo household, so anyone trying the demo on this machine can sign in as a member.
    static func demoPassword(for handle: String) -> String {
        String(handle.prefix { $0 != "." }) + "-stories"
    }

    /// A password made for someone and shown to them once: 96 random bits.
    static func randomPassword() -> String { SecureRandom.token(byteCount: 12) }
}

extension Application {
    /// Deletes the members whose removal is due, with their passwords, sign-ins, sessions and seen marks
    /// (housekeeping calls this every minute).
    func removeDueMembers() async throws -> [DID] {
        guard let backend, let authServer else { return [] }
        let removed = try await backend.removeDueMembers()
        for did in removed {
            try authServer.forgetAccount(did)
            try front.administration?.forget(did.rawValue)
        }
        return removed
    }
}
