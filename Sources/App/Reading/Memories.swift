import ATProto
import HatkClient
import Lexicon
import Logging
import Readers

/// "On this day" for a signed-in member: stories from today's date in earlier years (or, when there are none, from
/// the nearest earlier date within a week), grouped by how many years ago. Never for anonymous visitors.
final class Memories: Sendable {
    /// One year's stories, oldest first: what the memories viewer plays, and no further.
    struct Group: Equatable {
        var years: Int
        var stories: [StoryView]

        var label: String { Plural.count(years, "year") + " ago" }
    }

    /// Archives read per author against a remote hatk are kept this long (seconds): memories change once a day.
    static let archiveLifetime: Int64 = 3600
    /// Pages of `getStoryArchive` read per author (100 stories each) before giving up on older years.
    static let archivePages = 10
    /// Authors whose archives are read: the strip's first ones and the member.
    static let archiveAuthors = 40
    /// Archives kept (one per member, author and day), the least recently used going first.
    static let cachedArchives = 2048

    private let archives = MemoriesArchiveCache<[StoryView]>(capacity: cachedArchives, lifetime: archiveLifetime)

    /// The member's memories, most recent year first; empty for anonymous visitors.
    /// - Parameter authors: the strip's authors (muted and blocked ones already out), whose archives a remote hatk is
    ///   asked for.
    func groups(for context: RequestContext, authors: [StoryAuthor], filter: StoryFilter) async throws -> [Group] {
        guard let viewer = context.readsAs else { return [] }
        let window = MemoryWindow(now: context.now)
        let candidates: [StoryView]
        if let reader = context.reader.memories {
            candidates = try await reader.stories(onMonthDays: window.monthDays, before: window.cutoff)
        } else {
            var dids = [viewer]
            for author in authors where !dids.contains(author.profile.did) { dids.append(author.profile.did) }
            candidates = try await archived(Array(dids.prefix(Self.archiveAuthors)), window, context)
        }
        let hidden = filter.relationships.hiddenAuthors
        return Self.select(filter.visible(candidates).filter { !hidden.contains($0.creator.did) }, window: window)
    }

    /// Picks the nearest date with stories from earlier years and groups them by year, most recent year first.
    static func select(_ stories: [StoryView], window: MemoryWindow) -> [Group] {
        for date in window.dates {
            guard let year = Int(date.prefix(4)) else { continue }
            let monthDay = date.dropFirst(5)
            let matching = stories.filter { story in
                guard let storyYear = Int(story.createdAt.prefix(4)) else { return false }
                return storyYear < year && story.createdAt.dropFirst(5).prefix(5) == monthDay
            }
            guard !matching.isEmpty else { continue }
            let byYear = Dictionary(grouping: matching) { year - (Int($0.createdAt.prefix(4)) ?? year) }
            return byYear.keys.sorted().map { years in
                Group(years: years, stories: byYear[years]!.sorted { $0.createdAt < $1.createdAt })
            }
        }
        return []
    }

    /// The window's candidates from each author's archive (newest first, paged back), each author's kept for an hour
    /// and read once however many requests want it at the same moment.
    func archived(_ dids: [String], _ window: MemoryWindow, _ context: RequestContext) async throws -> [StoryView] {
        let reader = context.reader
        let now = context.unixNow
        let day = window.dates[0]
        let viewer = context.readsAs ?? ""
        return try await withThrowingTaskGroup(of: [StoryView].self) { group in
            for did in dids {
                guard let actor = DID.parse(did) else { continue }
                let key = viewer + " " + did + " " + day
                group.addTask { [archives] in
                    try await archives.value(for: key, now: now) { try await Self.scan(actor, window, reader) }
                }
            }
            var all: [StoryView] = []
            for try await found in group { all += found }
            return all
        }
    }

    /// Reads one archive back page by page, keeping stories on the window's dates from before its cutoff.
    static func scan(_ actor: DID, _ window: MemoryWindow, _ reader: any StoryReading) async throws -> [StoryView] {
        let days = Set(window.monthDays)
        let cutoff = window.cutoff.iso8601
        var cursor: String?
        var found: [StoryView] = []
        for _ in 0..<archivePages {
            let page = try await reader.storyArchive(of: actor, limit: 100, cursor: cursor)
            found += page.stories.filter { $0.createdAt < cutoff && days.contains(String($0.createdAt.dropFirst(5).prefix(5))) }
            guard let next = page.cursor, !page.stories.isEmpty else { break }
            cursor = next
        }
        return found
    }
}
