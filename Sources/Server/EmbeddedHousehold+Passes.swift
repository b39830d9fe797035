import ATProto
import App
import Backend

/// Paired screens and share links, kept in the backend's store beside the accounts they belong to (removing a
/// member removes theirs), so a backup holds them and every front of the household sees the same ones.
extension EmbeddedHousehold {
    func createPairing(by did: String, name: String, kioskQuery: String, memories: Bool, now: UTCTime) throws -> String {
        guard let did = DID.parse(did) else { throw HouseholdError.notOwner }
        return try backend.store.screens.createPairing(by: did, name: name, kioskQuery: kioskQuery, memories: memories, now: now)
    }

    func pendingPairing(_ token: String, now: UTCTime) throws -> PairedScreen? {
        try backend.store.screens.pendingPairing(token, now: now).map(Self.screen)
    }

    func completePairing(_ token: String, now: UTCTime) throws -> (credential: String, screen: PairedScreen)? {
        try backend.store.screens.completePairing(token, now: now).map { ($0.credential, Self.screen($0.screen)) }
    }

    func screen(credential: String, now: UTCTime) throws -> PairedScreen? {
        try backend.store.screens.screen(credential: credential, now: now).map(Self.screen)
    }

    func knownScreen(credential: String, now: UTCTime) -> PairedScreen? {
        backend.store.screens.knownScreen(credential: credential, now: now).map(Self.screen)
    }

    func screens() throws -> [PairedScreen] { try backend.store.screens.all().map(Self.screen) }

    func removeScreen(id: String) throws -> Bool { try backend.store.screens.removeScreen(id: id) }

    func createShare(of story: ATURI, by author: String, expiresAt: UTCTime, now: UTCTime) throws -> String {
        guard let did = DID.parse(author) else { throw HouseholdError.notOwner }
        return try backend.store.shares.createShare(of: story, by: did, expiresAt: expiresAt, now: now)
    }

    func share(token: String, now: UTCTime) throws -> StoryShare? { try backend.store.shares.share(token: token, now: now).map(Self.share) }

    func shares(of story: ATURI, now: UTCTime) throws -> [StoryShare] { try backend.store.shares.shares(of: story, now: now).map(Self.share) }

    func revokeShare(id: String, by author: String, now: UTCTime) throws -> Bool {
        guard let did = DID.parse(author) else { return false }
        return try backend.store.shares.revokeShare(id: id, by: did, now: now)
    }

    static func screen(_ screen: BackendStore.Screen) -> PairedScreen {
        PairedScreen(
            id: screen.id, name: screen.name, pairedBy: screen.pairedBy.rawValue, kioskQuery: screen.kioskQuery, memories: screen.memories,
            lastSeen: screen.lastSeen)
    }

    static func share(_ share: BackendStore.Share) -> StoryShare {
        StoryShare(id: share.id, story: share.story, author: share.author.rawValue, createdAt: share.createdAt, expiresAt: share.expiresAt)
    }
}
