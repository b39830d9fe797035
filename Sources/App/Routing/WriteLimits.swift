import FrontState
import HTTPServer
import Logging

/// What a signed-in person writes around stories, each kind counted per person: a member's session (or a stolen
/// one) must not flood the household with comments, fill the activity page of everyone it favourites, or keep the
/// backend busy with thousands of mutes and seen marks.
public enum SocialWrite: String, Sendable, CaseIterable {
    /// Posting a comment (taking one's own back is not limited: there are never more to delete than were posted).
    case comment
    /// Favouriting or taking a favourite back.
    case favourite
    case mute
    case block
    /// A story marked as seen by the viewer's scripts (one request per story).
    case seen
    case report

    /// What the refusal calls it: "You are commenting faster than…".
    var doing: String {
        switch self {
        case .comment: "commenting"
        case .favourite: "favouriting"
        case .mute: "muting people"
        case .block: "blocking people"
        case .seen: "marking stories as seen"
        case .report: "sending reports"
        }
    }
}

/// How much of one kind of write one person may make: a burst limit per minute and a volume cap per day.
public struct WriteLimit: Sendable, Equatable {
    public var perMinute: Int
    public var perDay: Int

    public init(perMinute: Int, perDay: Int) {
        self.perMinute = perMinute
        self.perDay = perDay
    }

    /// Well above what a person does by hand (a viewer tapping through a long strip marks a few stories a second),
    /// well below what a script does.
    public static let defaults: [SocialWrite: WriteLimit] = [
        .comment: WriteLimit(perMinute: 10, perDay: 500),
        .favourite: WriteLimit(perMinute: 60, perDay: 2_000),
        .mute: WriteLimit(perMinute: 20, perDay: 500),
        .block: WriteLimit(perMinute: 20, perDay: 500),
        .seen: WriteLimit(perMinute: 300, perDay: 20_000),
        .report: WriteLimit(perMinute: 10, perDay: 100),
    ]
}

/// The counters for every kind of write, per person (by DID), in this process or shared through PostgreSQL.
struct WriteLimiters: Sendable {
    struct Pair: Sendable {
        let minute: any RateLimiting
        let day: any RateLimiting
    }

    let limiters: [SocialWrite: Pair]

    /// Limiters for `limits`, each made by `make(scope, limit, window)`; a kind without a limit is not counted.
    init(_ limits: [SocialWrite: WriteLimit], make: (String, Int, Int64) -> any RateLimiting) {
        var limiters: [SocialWrite: Pair] = [:]
        for (write, limit) in limits {
            limiters[write] = Pair(
                minute: make("write-minute " + write.rawValue, limit.perMinute, 60),
                day: make("write-day " + write.rawValue, limit.perDay, 86_400))
        }
        self.limiters = limiters
    }

    /// Counts one write of `write` by `member`: refused while either window is full. The day counts only what the
    /// minute let through, so a burst of refused taps does not use up a person's day.
    func admit(_ write: SocialWrite, member: String, now: Int64) throws -> RateLimit.Decision {
        guard let pair = limiters[write] else { return .allowed }
        if case .limited(let wait) = try pair.minute.admit(member, now: now) { return .limited(retryAfter: wait) }
        return try pair.day.admit(member, now: now)
    }
}

/// Refuses a person's write of a limited kind once they have made too many: 429 with `Retry-After` and a sentence
/// that says to slow down, as a page for a form and as JSON for the viewer's scripts. It runs after the CSRF check,
/// so another site cannot spend a member's allowance.
struct WriteLimitMiddleware: ContextMiddleware {
    let write: SocialWrite
    let limiters: WriteLimiters
    let errors: FrontErrors
    let group: Route.Group

    func handle(_ context: RequestContext, next: @escaping ContextHandler) async throws -> Response {
        // A stranger's write is refused by its handler (sign in first) and counts against nobody.
        guard let did = context.session?.did else { return try await next(context) }
        guard case .limited(let wait) = try limiters.admit(write, member: did, now: context.unixNow) else {
            return try await next(context)
        }
        log.info("write limit reached", fields: ["write": write.rawValue, "did": did])
        let message = Self.message(write, wait: wait)
        var response: Response
        if group == .api || (context.request.headers["Accept"] ?? "").contains("application/json") {
            response = errors.json("RateLimited", message, status: .tooManyRequests)
        } else {
            response = errors.page(status: .tooManyRequests, heading: "Slow down", message: message, context: context)
        }
        response.headers["Retry-After"] = String(wait)
        return response
    }

    /// "You are commenting faster than this household allows. Wait 40 seconds, then try again."
    static func message(_ write: SocialWrite, wait: Int64) -> String {
        "You are \(write.doing) faster than this server allows. Wait \(Self.duration(wait)), then try again."
    }

    /// A wait in the unit a person reads it in.
    static func duration(_ seconds: Int64) -> String {
        if seconds < 120 { return Plural.count(seconds, "second") }
        if seconds < 7_200 { return Plural.count((seconds + 59) / 60, "minute") }
        return "about " + Plural.count((seconds + 1_799) / 3_600, "hour")
    }
}
