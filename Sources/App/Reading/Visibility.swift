import ATProto
import Caching
import HatkClient
import Lexicon
import Logging
import Readers

/// What one visitor may be shown: stories whose labels call for hiding are left out everywhere, warned ones come
/// blurred, and authors the visitor muted or blocks (or who block them) drop out of the strip, the kiosk and the
/// viewer's walk. hatk filters only `getStoryAuthors`; the front applies the same rules to everything else.
struct StoryFilter: Sendable {
    var policy: LabelPolicy
    var relationships: ViewerRelationships

    static let anonymous = StoryFilter(policy: .grain, relationships: .none)

    func decision(_ story: StoryView) -> LabelDecision { policy.resolve(story) }

    /// The stories that may be shown at all, in their order.
    func visible(_ stories: [StoryView]) -> [StoryView] {
        stories.filter { decision($0).action != .hide && !relationships.isBlocked($0.creator.did) }
    }

    /// The authors the visitor is walked through.
    func authors(_ authors: [StoryAuthor]) -> [StoryAuthor] {
        let hidden = relationships.hiddenAuthors
        return authors.filter { !hidden.contains($0.profile.did) }
    }
}

/// Builds a request's ``StoryFilter``: the label policy (shared, from ``LabelPolicies``) and the visitor's
/// relationships, kept for a short while per account and forgotten when they change them here.
final class Visibility: Sendable {
    let labels: LabelPolicies
    /// How long a visitor's mutes and blocks are reused (seconds); their own changes here apply at once.
    static let relationshipLifetime: Int64 = 30
    static let cachedAccounts = 1024
    /// Relationships by viewer, on Unix seconds.
    private let cache = Cache<String, ViewerRelationships>(
        capacity: Visibility.cachedAccounts, lifetime: .seconds(Visibility.relationshipLifetime))

    init(labels: LabelPolicies) { self.labels = labels }

    func filter(for context: RequestContext) async -> StoryFilter {
        async let policy = labels.current()
        guard let viewer = context.readsAs else { return StoryFilter(policy: await policy.policy, relationships: .none) }
        let relationships = await self.relationships(of: viewer, reader: context.reader, now: context.unixNow)
        return StoryFilter(policy: await policy.policy, relationships: relationships)
    }

    func relationships(of viewer: String, reader: any StoryReading, now: Int64) async -> ViewerRelationships {
        if let hit = cache.value(for: viewer, now: .seconds(now)) { return hit }
        let fresh: ViewerRelationships
        do {
            fresh = try await reader.relationships()
        } catch {
            // An upstream without the lists (or a session that ended) filters nothing more than hatk already does.
            log.warning("mutes and blocks unavailable: \(error)")
            fresh = .none
        }
        cache.insert(fresh, for: viewer, now: .seconds(now))
        return fresh
    }

    /// Forgets a visitor's relationships after they muted, blocked or undid either.
    func forget(_ viewer: String) {
        cache.removeValue(for: viewer)
    }
}
