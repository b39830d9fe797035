public import ATProto

/// A household account of the embedded backend.
public struct Account: Sendable, Equatable {
    public var did: DID
    public var handle: String
    public var createdAt: String
    /// `owner` (who administers the household) or `member`.
    public var role = "member"
    /// Set while the owner has disabled the account (or its removal is pending): it cannot sign in.
    public var isDisabled = false

    /// Whether the account may sign in and act.
    public var isActive: Bool { !isDisabled }
}
