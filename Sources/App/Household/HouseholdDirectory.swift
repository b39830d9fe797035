public import ATProto
import Foundation

/// The household's accounts, as the first-run page, invitations and the header need them. Only the embedded
/// backend has one; against a remote hatk accounts live there.
public protocol HouseholdDirectory: HouseholdPasses {
    /// Handles end in this domain: `maya.home.test`.
    var handleDomain: String { get }
    /// True while the household has no account at all (the first visitor must create the owner).
    func needsOwner() throws -> Bool
    /// Whether the setup code printed at start (and kept in the data directory) is `code`.
    func isSetupCode(_ code: String) throws -> Bool
    /// The role of the account `did`; nil for no account of this household.
    func role(of did: String) throws -> HouseholdRole?
    /// Creates the owner with a profile and password; fails with `HouseholdError.alreadySetUp` once one exists.
    func createOwner(_ member: NewMember, now: UTCTime) async throws -> String
    /// A single-use invitation token made by the owner `did`, making whoever uses it a `role` (member or guest).
    func createInvite(by did: String, role: HouseholdRole, now: UTCTime) throws -> String
    /// The role an open invitation gives; nil when it cannot be used (unknown, used, revoked, expired alike).
    func inviteRole(_ token: String, now: UTCTime) throws -> HouseholdRole?
    /// Uses the invitation to create a member or guest; returns the new handle.
    func acceptInvite(_ token: String, member: NewMember, now: UTCTime) async throws -> String
    /// Every member with their storage use, the owner first.
    func members() throws -> [HouseholdMember]
    /// Invitations, newest first.
    func invitations(now: UTCTime) throws -> [HouseholdInvitation]
    /// Changes one member's account (by full handle or DID) and its sign-ins; the front's sessions are
    /// ``MemberAdministration``'s to end. Throws `HouseholdError` for an unknown member or the owner.
    func administer(_ change: MemberChange, member: String, now: UTCTime) async throws -> MemberChangeResult
    /// Takes back an open invitation by its id; false when it was not open.
    func revokeInvitation(id: String, now: UTCTime) throws -> Bool
}

extension HouseholdDirectory {
    func isOwner(_ did: String) throws -> Bool { try role(of: did) == .owner }
}

/// Who is joining: the name becomes the first label of the handle.
public struct NewMember: Sendable, Equatable {
    public var name: String
    public var displayName: String
    public var password: String

    public init(name: String, displayName: String, password: String) {
        self.name = name
        self.displayName = displayName
        self.password = password
    }

    /// A form field the person got wrong, and how to get it right.
    public struct FieldError: Error, Sendable, CustomStringConvertible {
        public let field: String
        public let description: String
    }

    /// A name becomes the first label of the handle: 1 to 30 lower-case letters, digits and hyphens.
    public static func checkName(_ raw: String) throws(FieldError) -> String {
        let name = raw.trimmingCharacters(in: .whitespaces).lowercased()
        let allowed = name.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }
        guard (1...30).contains(name.count), allowed, name.first?.isLetter == true, name.last != "-" else {
            throw FieldError(field: "name", description: "Use 1 to 30 lower-case letters, digits or hyphens, starting with a letter.")
        }
        return name
    }

    public static func checkPassword(_ password: String, confirmation: String) throws(FieldError) {
        guard password.count >= 8 else { throw FieldError(field: "password", description: "Use at least 8 characters.") }
        guard password.count <= 200 else { throw FieldError(field: "password", description: "Use at most 200 characters.") }
        guard password == confirmation else { throw FieldError(field: "confirm", description: "The two passwords differ.") }
    }
}

/// Why the household could not do what was asked, in words for the person at the form.
public struct HouseholdError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Code: Sendable {
        case alreadySetUp, nameTaken, inviteInvalid, setupCodeWrong, notOwner, unknownMember, ownerProtected, invalidQuota, removalUnconfirmed,
            unknownAction, disabledMember
    }
    let code: Code
    public let description: String

    public static let alreadySetUp = HouseholdError(
        code: .alreadySetUp, description: "This household already has an owner. Ask them for an invitation.")
    public static let nameTaken = HouseholdError(code: .nameTaken, description: "That name is already taken here.")
    public static let inviteInvalid = HouseholdError(
        code: .inviteInvalid, description: "This invitation has expired or was already used. Ask for a new one.")
    public static let notOwner = HouseholdError(code: .notOwner, description: "Only the household’s owner can do this.")
    public static func unknownMember(_ name: String) -> HouseholdError {
        HouseholdError(code: .unknownMember, description: "There is no member \(name) in this household.")
    }
    public static let ownerProtected = HouseholdError(
        code: .ownerProtected, description: "The household’s owner cannot be disabled, removed or reset here.")
    public static let invalidQuota = HouseholdError(
        code: .invalidQuota, description: "A quota is a number of bytes (it may end in K, M or G), or none.")
    public static let removalUnconfirmed = HouseholdError(
        code: .removalUnconfirmed,
        description: "Nothing was removed: tick the box that says you understand the member’s stories and photos will be deleted.")
    /// A disabled member's password stays as it is: enabling comes first, so a reset cannot quietly undo a disable.
    public static func disabledMember(_ handle: String) -> HouseholdError {
        HouseholdError(code: .disabledMember, description: "@\(handle) is disabled; enable them first, then reset the password.")
    }
    public static let unknownAction = HouseholdError(code: .unknownAction, description: "That is not something this page can do.")
    public static let setupCodeWrong = HouseholdError(
        code: .setupCodeWrong,
        description: "That setup code is not right. It is printed when the server starts and kept in the data folder's setup-code file.")
}
