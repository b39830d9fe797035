import ATProto
import Lexicon
import Synchronization

/// Where a signed-in visitor's seen marks live: with the upstream when it keeps Grain's viewed state, else in the
/// front's own store. The upstream is never probed: it has the viewed state when a signed-in `getStoryAuthors`
/// carries `unviewedCount` (hatk answers an unknown method with its web app's HTML, so asking would prove nothing).
/// The embedded backend has it, so there the backend's state is the one truth; the front's store serves upstreams
/// without it. Either way reads combine the views' own viewed fields with the marks this process made.
final class SeenKeeper: Sendable {
    enum Support: Int, Sendable {
        case unknown, upstream, local
    }

    let local: SeenMarks
    let upstream: UpstreamSeenMarks
    private let support = Atomic<Int>(Support.unknown.rawValue)

    init(local: SeenMarks, upstream: UpstreamSeenMarks) {
        self.local = local
        self.upstream = upstream
    }

    var current: Support { Support(rawValue: support.load(ordering: .relaxed)) ?? .unknown }

    /// Learns from a signed-in `getStoryAuthors` whether the upstream keeps viewed state. An empty list says nothing.
    func observe(_ authors: [StoryAuthor], signedIn: Bool) {
        guard signedIn, let first = authors.first else { return }
        let found: Support = first.unviewedCount != nil || authors.contains { $0.unviewedCount != nil } ? .upstream : .local
        support.store(found.rawValue, ordering: .relaxed)
    }

    /// The marks that count for `account` besides what the views say; nothing for anonymous visitors.
    func state(for account: String?) throws -> SeenState {
        guard let account else { return .none }
        switch current {
        case .upstream: return upstream.state(for: account)
        case .local, .unknown: return try local.state(for: account)
        }
    }

    /// Changes whenever `account` sees a story it had not seen, wherever the mark went (cached pages are keyed by it).
    func version(for account: String) -> Int {
        local.version(for: account) &+ upstream.version(for: account)
    }

    /// Marks a story seen for the session's account.
    func mark(uri: ATURI, createdAt: UTCTime, session: BrowserSession, now: UTCTime) {
        switch current {
        case .upstream: upstream.mark(uri: uri, createdAt: createdAt, session: session)
        case .local, .unknown: local.mark(uri: uri, createdAt: createdAt, account: session.did, now: now)
        }
    }

    /// Marks a served story as seen.
    func mark(_ item: StoryItem, session: BrowserSession, now: UTCTime) {
        guard let uri = try? ATURI(item.uri), let created = UTCTime(iso8601: item.createdAt) else { return }
        mark(uri: uri, createdAt: created, session: session, now: now)
    }

    /// Sends the account's waiting marks upstream now (its page is hiding).
    func flush(_ account: String) async {
        await upstream.flush(account)
    }
}
