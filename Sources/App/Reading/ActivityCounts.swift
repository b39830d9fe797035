import Caching
import HTTPServer
import Lexicon
import Logging
import Readers

/// How many favourites and comments on a signed-in person's stories they have not looked at, for the header's count:
/// only what the activity page lists (``StoryNotifications``), asked at most once a minute per person, and forgotten
/// when they open their activity page. An upstream without notifications shows no count.
final class ActivityCounts: Sendable {
    static let lifetime: Int64 = 60
    static let cachedAccounts = 1024
    /// Counts by viewer on Unix seconds; none (an upstream that could not say) is kept as any count is.
    private let counts = Cache<String, Int?>(capacity: ActivityCounts.cachedAccounts, lifetime: .seconds(ActivityCounts.lifetime))

    func count(for viewer: String, reader: any StoryReading, now: Int64) async -> Int? {
        if let hit = counts.value(for: viewer, now: .seconds(now)) { return hit }
        var count: Int?
        do {
            count = try await StoryNotifications.unseenCount(reader)
        } catch {
            log.warning("activity count unavailable: \(error)")
        }
        counts.insert(count, for: viewer, now: .seconds(now))
        return count
    }

    func forget(_ viewer: String) {
        counts.removeValue(for: viewer)
    }
}

/// Fills the header's activity count for signed-in pages, before the page renders. The count is decoration: a slow
/// or failing upstream leaves it out rather than holding the page.
struct ActivityCountMiddleware: ContextMiddleware {
    let counts: ActivityCounts
    /// The longest a page waits for its count.
    static let patience: Duration = .milliseconds(1500)

    func handle(_ context: RequestContext, next: @escaping ContextHandler) async throws -> Response {
        guard let viewer = context.viewer else { return try await next(context) }
        var context = context
        let (counts, reader, now) = (counts, context.reader, context.unixNow)
        context.activityCount =
            (try? await withDeadline(
                Self.patience, timeout: { ReadError(.timeout, endpoint: "getNotifications") },
                { await counts.count(for: viewer, reader: reader, now: now) })) ?? nil
        return try await next(context)
    }
}
