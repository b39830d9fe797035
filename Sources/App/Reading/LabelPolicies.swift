import ATProto
import HatkClient
import Lexicon
import Logging
import Readers
import Synchronization

/// The upstream's label definitions (`dev.hatk.describeLabels`), asked for at most once an hour and shared by every
/// request: they decide which stories are hidden or shown behind a warning, and which reasons a report offers.
/// Until the upstream has answered, or when it cannot, Grain's own definitions apply (``LabelPolicy/grain``).
final class LabelPolicies: Sendable {
    /// The policy in force and the definitions it was made from, in the upstream's order.
    struct Current: Sendable {
        var policy: LabelPolicy
        var definitions: [LabelDefinition]

        static let grain = Current(policy: .grain, definitions: LabelDefinition.grain)
    }

    private struct Cached {
        var current: Current
        var expires: Int64
    }

    /// How long definitions are kept, and how soon a failed request is tried again (seconds).
    static let lifetime: Int64 = 3600
    static let retryAfterFailure: Int64 = 300

    let source: any StorySource
    let clock: @Sendable () -> UTCTime
    private let cached = Mutex<Cached?>(nil)

    init(source: any StorySource, clock: @escaping @Sendable () -> UTCTime) {
        self.source = source
        self.clock = clock
    }

    /// The current policy: cached, or asked for now (anonymously: definitions are the same for everyone).
    func current() async -> Current {
        let now = clock().unixSeconds
        if let hit = cached.withLock({ $0 }), hit.expires > now { return hit.current }
        let fresh: Cached
        do {
            let definitions = try await source.reader(for: nil).labelDefinitions()
            // A server that defines nothing still gets the atproto fallbacks; its reports then offer Grain's reasons.
            fresh = Cached(
                current: definitions.isEmpty ? .grain : Current(policy: LabelPolicy(definitions: definitions), definitions: definitions),
                expires: now + Self.lifetime)
        } catch {
            log.warning("label definitions unavailable, using Grain's: \(error)")
            fresh = Cached(current: cached.withLock { $0?.current } ?? .grain, expires: now + Self.retryAfterFailure)
        }
        cached.withLock { $0 = fresh }
        return fresh.current
    }
}
