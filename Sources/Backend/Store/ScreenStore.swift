public import ATProto
import Crypto
import Foundation
import Storage

/// Paired screens: a wall tablet that shows the household's kiosk with a credential of its own, not a member's
/// session. A member makes a one-time pairing link; the browser that opens it gets the screen's credential. Both
/// are stored only as hashes, so neither can be read back out of the database.
public final class ScreenStore: Sendable {
    let database: Database
    /// Paired screens by credential hash: a kiosk's fast path reads no database.
    let knownScreens: UntilNextWrite<String, Screen>

    init(database: Database) {
        self.database = database
        knownScreens = UntilNextWrite(database: database, capacity: 256)
    }

    /// A pairing link works once, for ten minutes.
    public static let pairingLifetime: Double = 600
    /// A screen's last-seen time is written at most this often, so a kiosk's requests are reads.
    static let sightingInterval: Double = 60

    /// One screen as the admin page and the kiosk see it.
    public struct Screen: Sendable, Equatable {
        /// A random id the owner's forms name it by; not a credential.
        public var id: String
        public var name: String
        /// The member who paired it: the kiosk reads as them (their mutes; their memories when `memories`).
        public var pairedBy: DID
        /// The kiosk's options chosen at pairing (a query string: authors, memories, the night).
        public var kioskQuery: String
        /// Whether it may show the pairing member's memories.
        public var memories: Bool
        public var createdAt: String
        public var pairedAt: String?
        public var lastSeen: String?
    }

    /// Starts pairing a screen named `name`: returns the pairing link's token, shown once.
    public func createPairing(by member: DID, name: String, kioskQuery: String, memories: Bool, now: UTCTime) throws -> String {
        let token = SecureRandom.token(byteCount: 24)
        try database.write {
            try $0.execute(
                """
                INSERT INTO screens (id, name, paired_by, kiosk_query, memories, created_at, pairing_hash, pairing_expires)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    SecureRandom.token(byteCount: 9), name, member.rawValue, kioskQuery, memories ? 1 : 0, now.iso8601,
                    StoreSQL.tokenHash(token), now.adding(seconds: Self.pairingLifetime).iso8601,
                ])
        }
        return token
    }

    /// The screen a pairing token would pair, while it is unused and fresh and its member may still act.
    public func pendingPairing(_ token: String, now: UTCTime) throws -> Screen? {
        try database.read { try Self.pending(token, now: now, $0) }
    }

    /// Uses a pairing token: the screen gets a credential (returned once, for its cookie) and the token stops working.
    public func completePairing(_ token: String, now: UTCTime) throws -> (credential: String, screen: Screen)? {
        let credential = SecureRandom.token(byteCount: 32)
        return try database.write { connection -> (String, Screen)? in
            guard var screen = try Self.pending(token, now: now, connection) else { return nil }
            try connection.execute(
                "UPDATE screens SET pairing_hash = NULL, credential_hash = ?, paired_at = ?, last_seen = ? WHERE id = ?",
                [StoreSQL.tokenHash(credential), now.iso8601, now.iso8601, screen.id])
            screen.pairedAt = now.iso8601
            screen.lastSeen = now.iso8601
            return (credential, screen)
        }
    }

    /// The screen a credential belongs to, while it is paired and its member may act; notes when it was last seen.
    public func screen(credential: String, now: UTCTime) throws -> Screen? {
        let hash = StoreSQL.tokenHash(credential)
        let commits = knownScreens.commits
        let found = try database.read { connection in
            try connection.queryOne(Self.screenColumns + " WHERE s.credential_hash = ? AND a.disabled_at IS NULL", [hash]).flatMap(Self.screen)
        }
        guard var screen = found else { return nil }
        if Self.sightingIsDue(screen, now: now) {
            try database.write { try $0.execute("UPDATE screens SET last_seen = ? WHERE id = ?", [now.iso8601, screen.id]) }
            screen.lastSeen = now.iso8601
        } else {
            knownScreens.remember(screen, for: hash, readAt: commits)
        }
        return screen
    }

    /// The screen a credential belongs to, from memory only: nil when it was not read since the last write, or when
    /// its sighting is due (the full path writes it). For the kiosk's fast path; removing a screen, or its member, is
    /// a write, so a removed screen is never found here.
    public func knownScreen(credential: String, now: UTCTime) -> Screen? {
        guard let screen = knownScreens.value(for: StoreSQL.tokenHash(credential)), !Self.sightingIsDue(screen, now: now) else { return nil }
        return screen
    }

    private static func sightingIsDue(_ screen: Screen, now: UTCTime) -> Bool {
        let last = screen.lastSeen.flatMap { UTCTime(iso8601: $0) }
        return last.map { now.unixSeconds - $0.unixSeconds >= Int64(sightingInterval) } ?? true
    }

    /// Every paired screen, most recently seen first.
    public func all() throws -> [Screen] {
        try database.read {
            try $0.query(Self.screenColumns + " WHERE s.credential_hash IS NOT NULL ORDER BY s.last_seen DESC, s.name").compactMap(Self.screen)
        }
    }

    /// Unpairs a screen: its next request finds no credential. False when there was no such screen.
    @discardableResult
    public func removeScreen(id: String) throws -> Bool {
        try database.write { connection in
            try connection.execute("DELETE FROM screens WHERE id = ?", [id])
            return connection.changes == 1
        }
    }

    /// Forgets pairing links that expired unused.
    public func prunePairings(now: UTCTime) throws {
        try database.write {
            try $0.execute("DELETE FROM screens WHERE credential_hash IS NULL AND pairing_expires <= ?", [now.iso8601])
        }
    }

    static let screenColumns = """
        SELECT s.id, s.name, s.paired_by, s.kiosk_query, s.memories, s.created_at, s.paired_at, s.last_seen
        FROM screens s JOIN accounts a ON a.did = s.paired_by
        """

    static func pending(_ token: String, now: UTCTime, _ connection: Connection) throws -> Screen? {
        try connection.queryOne(
            Self.screenColumns + " WHERE s.pairing_hash = ? AND s.pairing_expires > ? AND a.disabled_at IS NULL",
            [StoreSQL.tokenHash(token), now.iso8601]
        ).flatMap(Self.screen)
    }

    static func screen(_ row: Row) -> Screen? {
        guard let pairedBy = row.string("paired_by").flatMap(DID.parse) else { return nil }
        return Screen(
            id: row.string("id") ?? "", name: row.string("name") ?? "", pairedBy: pairedBy, kioskQuery: row.string("kiosk_query") ?? "",
            memories: row.int("memories") == 1, createdAt: row.string("created_at") ?? "", pairedAt: row.string("paired_at"),
            lastSeen: row.string("last_seen"))
    }
}
