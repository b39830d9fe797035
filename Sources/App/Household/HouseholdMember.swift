import ATProto

/// What a person may do in the household. The backend keeps it with the account; the front asks for it once per
/// request (`RequestContext.role`).
public enum HouseholdRole: String, Sendable, CaseIterable {
    /// Administers the household: invites, removes, reviews reports, pairs screens.
    case owner
    /// Posts stories, and watches, favourites and comments.
    case member
    /// Watches, favourites and comments (a grandparent on their own phone); never posts and never appears in the
    /// strip.
    case guest

    /// Whether they may post stories.
    public var posts: Bool { self != .guest }

    /// How the invitation form and the admin page name it.
    var label: String {
        switch self {
        case .owner: "Owner"
        case .member: "Member"
        case .guest: "Guest"
        }
    }
}

/// One account as the owner's page and `users list` show it.
public struct HouseholdMember: Sendable, Equatable {
    public var did: String
    public var handle: String
    public var role: HouseholdRole
    /// `active`, `disabled` or `removal pending`.
    public var status: String
    /// When the account, its records and its blobs are deleted (ISO 8601); nil unless a removal is pending.
    public var removalDue: String?
    /// Bytes of the blobs it owns.
    public var storageBytes: Int
    /// The most blob bytes it may own; nil for no limit.
    public var quotaBytes: Int?
    public var recordCount: Int

    public var isOwner: Bool { role == .owner }

    public init(
        did: String, handle: String, role: HouseholdRole, status: String, removalDue: String?, storageBytes: Int, quotaBytes: Int?,
        recordCount: Int
    ) {
        self.did = did
        self.handle = handle
        self.role = role
        self.status = status
        self.removalDue = removalDue
        self.storageBytes = storageBytes
        self.quotaBytes = quotaBytes
        self.recordCount = recordCount
    }
}

/// An invitation as the owner's page lists it: `id` is its stored hash, never the link's secret.
public struct HouseholdInvitation: Sendable, Equatable {
    public var id: String
    public var createdAt: String
    public var expiresAt: String
    /// `open`, `used`, `revoked` or `expired`.
    public var state: String
    /// What the invitation makes the person who uses it.
    public var role: HouseholdRole

    public init(id: String, createdAt: String, expiresAt: String, state: String, role: HouseholdRole = .member) {
        self.id = id
        self.role = role
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.state = state
    }
}

/// What the owner can do to one member, from the admin page or the command line.
public enum MemberChange: Sendable, Equatable {
    /// The member can no longer sign in; every sign-in and session ends.
    case disable
    /// Lets a disabled member sign in again (and takes back a pending removal).
    case enable
    /// Disables now and deletes the member's records and blobs after the grace period.
    case remove
    /// Takes back a pending removal.
    case restore
    /// Sets the storage quota in bytes; nil removes it.
    case quota(Int?)
    /// A new password (returned once); every sign-in and session ends.
    case resetPassword

    /// The word the log and the command line use.
    public var verb: String {
        switch self {
        case .disable: "disabled"
        case .enable: "enabled"
        case .remove: "scheduled the removal of"
        case .restore: "restored"
        case .quota(let bytes): bytes.map { "set a quota of \($0) bytes for" } ?? "removed the quota of"
        case .resetPassword: "reset the password of"
        }
    }

    /// Whether the member's sessions on the front end with it.
    var endsSessions: Bool {
        switch self {
        case .disable, .remove, .resetPassword: true
        case .enable, .restore, .quota: false
        }
    }
}

/// What a change did, in words for the owner.
public struct MemberChangeResult: Sendable, Equatable {
    public var did: String
    public var handle: String
    /// A sentence for the owner: "Maya is disabled…".
    public var message: String
    /// The new password of a reset, shown once; nil otherwise.
    public var password: String?

    public init(did: String, handle: String, message: String, password: String? = nil) {
        self.did = did
        self.handle = handle
        self.message = message
        self.password = password
    }
}
