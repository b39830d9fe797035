public import ATProto

/// A household account of the embedded backend.
public struct Account: Sendable, Equatable {
    public var did: DID
    public var handle: String
    public var createdAt: String
    public var role = AccountRole.member
    /// Set while the owner has disabled the account (or its removal is pending): it cannot sign in.
    public var isDisabled = false

    /// Whether the account may sign in and act.
    public var isActive: Bool { !isDisabled }
}

/// What an account may do in the household.
public enum AccountRole: String, Sendable, CaseIterable {
    /// Administers the household (the first account): invites, removes, reviews reports.
    case owner
    /// Posts stories, and watches, favourites and comments.
    case member
    /// Watches, favourites and comments, and never posts: a grandparent on their own phone.
    case guest

    /// Whether the account may upload photos and write stories.
    public var posts: Bool { self != .guest }
}

extension AccountRole {
    /// The role a row holds; anything unknown reads as a guest, the role that can do least.
    init(stored: String?) { self = stored.flatMap(AccountRole.init(rawValue:)) ?? .guest }
}
