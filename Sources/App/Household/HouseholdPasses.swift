public import ATProto

/// The household's ways in that are not accounts: paired screens (a wall tablet that reads the kiosk and nothing
/// else) and share links (one story, for whoever has the link). Links and credentials are stored only as hashes, so
/// each is shown once and a lookup compares hashes.
public protocol HouseholdPasses: Sendable {
    /// A pairing link's token for a screen called `name`, made by the member `did`, usable once within ten minutes.
    func createPairing(by did: String, name: String, kioskQuery: String, memories: Bool, now: UTCTime) throws -> String
    /// The screen an unused, fresh pairing token would pair; nil otherwise.
    func pendingPairing(_ token: String, now: UTCTime) throws -> PairedScreen?
    /// Uses a pairing token: the screen's credential (for its cookie, shown once) and the screen.
    func completePairing(_ token: String, now: UTCTime) throws -> (credential: String, screen: PairedScreen)?
    /// The paired screen a credential belongs to; nil once it is removed.
    func screen(credential: String, now: UTCTime) throws -> PairedScreen?
    /// The paired screen a credential belongs to, from memory only (nil when it would take a read): the fast path's.
    func knownScreen(credential: String, now: UTCTime) -> PairedScreen?
    /// Every paired screen, for the owner.
    func screens() throws -> [PairedScreen]
    /// Unpairs a screen; false when there was none.
    func removeScreen(id: String) throws -> Bool
    /// A share link's token for `story`, by its author, working until `expiresAt`.
    func createShare(of story: ATURI, by author: String, expiresAt: UTCTime, now: UTCTime) throws -> String
    /// The live share a token opens; nil for any token that does not (unknown, revoked, expired: the same nil).
    func share(token: String, now: UTCTime) throws -> StoryShare?
    /// The live links to one story, for its author.
    func shares(of story: ATURI, now: UTCTime) throws -> [StoryShare]
    /// Revokes one of `author`'s links; false when they have no such live link.
    func revokeShare(id: String, by author: String, now: UTCTime) throws -> Bool
}

/// A wall tablet paired with the household: it reads the kiosk as the member who paired it.
public struct PairedScreen: Sendable, Equatable {
    /// Names it in the owner's forms; not a credential.
    public var id: String
    public var name: String
    /// The member who paired it (a DID): the kiosk reads as them.
    public var pairedBy: String
    /// The kiosk options chosen at pairing, as a query string.
    public var kioskQuery: String
    /// Whether it shows the pairing member's memories.
    public var memories: Bool
    /// When it was last seen (ISO 8601); nil before it was paired.
    public var lastSeen: String?

    public init(id: String, name: String, pairedBy: String, kioskQuery: String, memories: Bool, lastSeen: String?) {
        self.id = id
        self.name = name
        self.pairedBy = pairedBy
        self.kioskQuery = kioskQuery
        self.memories = memories
        self.lastSeen = lastSeen
    }
}

/// A live share link, as its author's list shows it: `id` names it in forms, never the link's secret.
public struct StoryShare: Sendable, Equatable {
    public var id: String
    public var story: ATURI
    public var author: String
    public var createdAt: String
    public var expiresAt: String

    public init(id: String, story: ATURI, author: String, createdAt: String, expiresAt: String) {
        self.id = id
        self.story = story
        self.author = author
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
