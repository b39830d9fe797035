import ATProto
import AuthServer
import Backend
import Foundation
import Lexicon

/// Account administration of the embedded backend: the first-run owner, invitations, new members.
/// It exists only when the embedded backend serves; with `--appview` accounts live elsewhere.
struct HouseholdAdmin: Sendable {
    let backend: EmbeddedBackend
    let authServer: AuthServer
    let handleDomain: String

    struct InputError: Error, CustomStringConvertible {
        let field: String
        let description: String
    }

    /// A name becomes the first label of the handle: lower-case letters, digits and hyphens.
    static func checkName(_ raw: String) throws -> String {
        let name = raw.trimmingCharacters(in: .whitespaces).lowercased()
        let allowed = name.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
        guard (1...30).contains(name.count), allowed, name.first?.isLetter == true, name.last != "-" else {
            throw InputError(field: "name", description: "Use 1 to 30 lower-case letters, digits or hyphens, starting with a letter.")
        }
        return name
    }

    static func checkPassword(_ password: String, confirmation: String) throws {
        guard password.count >= 8 else { throw InputError(field: "password", description: "Use at least 8 characters.") }
        guard password.count <= 200 else { throw InputError(field: "password", description: "Use at most 200 characters.") }
        guard password == confirmation else { throw InputError(field: "confirm", description: "The two passwords differ.") }
    }

    var needsOwner: Bool { (try? backend.store.accountCount()) == 0 }

    func handle(for name: String) -> String { "\(name).\(handleDomain)" }

    /// Writes the profile and password of a freshly created account.
    func finish(_ account: Account, displayName: String, password: String, now: UTCTime) throws {
        let trimmed = displayName.trimmingCharacters(in: .whitespaces)
        let profile = ProfileRecord(displayName: trimmed.isEmpty ? nil : String(trimmed.prefix(64)), createdAt: now.iso8601)
        try backend.store.putRecord(
            did: account.did, collection: ProfileRecord.collection, rkey: "self", value: try JSONValue(encoding: profile), now: now)
        try authServer.setPassword(password, for: account.did)
    }
}
