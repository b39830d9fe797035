public import ATProto
public import Lexicon
import Synchronization

/// Where a signed-in visitor's seen marks live: with the upstream when it keeps Grain's viewed state, else in the
/// front's own store. The upstream is never probed: it has the viewed state when a signed-in `getStoryAuthors`
/// carries `unviewedCount` (hatk answers an unknown method with its web app's HTML, so asking would prove nothing).
/// The embedded backend has it, so there the backend's state is the one truth; the front's store serves upstreams
/// without it. Either way reads combine the views' own viewed fields with the marks this process made.
public final class SeenKeeper: Sendable {
    /// Who keeps the signed-in visitors' marks, as learnt from the upstream's answers.
    public enum Support: Int, Sendable {
        /// Not learnt yet (no signed-in strip read since the start): marks go to the front's store meanwhile.
        case unknown
        /// The upstream has Grain's viewed state: marks go to it (`markStoriesViewed`).
        case upstream
        /// The upstream has none: the front keeps the marks itself.
        case local
    }

    /// The front's own store, for an upstream without viewed state (and until that is learnt).
    public let local: SeenMarks
    /// The marks for an upstream that keeps viewed state, waiting to go up in batches.
    public let upstream: UpstreamSeenMarks
    private let support = Atomic<Int>(Support.unknown.rawValue)

    /// Both places are made up front, since which one counts is only learnt from the first signed-in strip.
    public init(local: SeenMarks, upstream: UpstreamSeenMarks) {
        self.local = local
        self.upstream = upstream
    }

    /// Where marks go now, as last learnt from the upstream's answers.
    public var current: Support { Support(rawValue: support.load(ordering: .relaxed)) ?? .unknown }

    /// Learns from a signed-in `getStoryAuthors` whether the upstream keeps viewed state. An empty list says nothing.
    public func observe(_ authors: [StoryAuthor], signedIn: Bool) {
        guard signedIn, let first = authors.first else { return }
        let found: Support = first.unviewedCount != nil || authors.contains { $0.unviewedCount != nil } ? .upstream : .local
        support.store(found.rawValue, ordering: .relaxed)
    }

    /// The marks that count for `account` besides what the views say; nothing for anonymous visitors.
    public func state(for account: String?) throws -> SeenState {
        guard let account else { return .none }
        switch current {
        case .upstream: return upstream.state(for: account)
        case .local, .unknown: return try local.state(for: account)
        }
    }

    /// Changes whenever `account` sees a story it had not seen, wherever the mark went (cached pages are keyed by it).
    public func version(for account: String) -> Int {
        local.version(for: account) &+ upstream.version(for: account)
    }

    /// Marks a story seen for the session's account; the session is what sends the mark upstream as that person.
    public func mark(uri: ATURI, createdAt: UTCTime, session: BrowserSession, now: UTCTime) {
        switch current {
        case .upstream: upstream.mark(uri: uri, createdAt: createdAt, session: session)
        case .local, .unknown: local.mark(uri: uri, createdAt: createdAt, account: session.did, now: now)
        }
    }

    /// Sends the account's waiting marks upstream now (its page is hiding).
    public func flush(_ account: String) async {
        await upstream.flush(account)
    }
}
