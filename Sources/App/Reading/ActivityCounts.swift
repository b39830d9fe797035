import HTTPServer
import HatkClient
import Lexicon
import Logging
import Synchronization

/// How many favourites and comments on a signed-in person's stories they have not looked at, for the header's count:
/// only what the activity page lists (``StoryNotifications``), asked at most once a minute per person, and forgotten
/// when they open their activity page. An upstream without notifications shows no count.
final class ActivityCounts: Sendable {
    static let lifetime: Int64 = 60
    static let cachedAccounts = 1024
    private let counts = Mutex<[String: (count: Int?, expires: Int64)]>([:])

    func count(for viewer: String, reader: any StoryReading, now: Int64) async -> Int? {
        if let hit = counts.withLock({ $0[viewer] }), hit.expires > now { return hit.count }
        var count: Int?
        do {
            count = try await StoryNotifications.unseenCount(reader)
        } catch {
            log.warning("activity count unavailable: \(error)")
        }
        counts.withLock { counts in
            if counts.count >= Self.cachedAccounts { counts.removeAll() }
            counts[viewer] = (count, now + Self.lifetime)
        }
        return count
    }

    func forget(_ viewer: String) {
        _ = counts.withLock { $0.removeValue(forKey: viewer) }
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
                Self.patience, timeout: { HatkError(kind: .timeout, endpoint: "getNotifications") },
                { await counts.count(for: viewer, reader: reader, now: now) })) ?? nil
        return try await next(context)
    }
}
