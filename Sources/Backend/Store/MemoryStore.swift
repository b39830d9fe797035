public import ATProto
import Foundation
import Lexicon
import Storage

/// "On this day": stories of every account created on given calendar days of any year.
public final class MemoryStore: Sendable {
    let database: Database

    init(database: Database) { self.database = database }

    /// Visible stories created on one of `monthDays` (`MM-DD`, UTC) before `cutoff`, oldest first, without authors
    /// the viewer muted or blocked either way. The caller picks the years and the nearest day.
    public func stories(onMonthDays monthDays: [String], before cutoff: UTCTime, viewer: DID?, limit: Int) throws -> [StoryStore.StoryRow] {
        let days = monthDays.filter { $0.utf8.count == 5 }
        guard !days.isEmpty else { return [] }
        // ?1 viewer, ?2 cutoff, ?3 limit, then the days: bound, never spliced into the SQL.
        let marks = days.indices.map { "?\($0 + 4)" }.joined(separator: ", ")
        let condition = "r.created_at < ?2 AND substr(r.created_at, 6, 5) IN (\(marks)) AND \(StoreSQL.notMutedOrBlocked("r.did"))"
        var parameters: [SQLValue] = [.text(viewer?.rawValue ?? ""), .text(cutoff.iso8601), .integer(Int64(limit))]
        parameters += days.map { .text($0) }
        return try database.read {
            try $0.query(StoryStore.storySelect(where: condition) + " ORDER BY r.created_at ASC, r.rkey ASC LIMIT ?3", parameters)
        }.map(StoryStore.storyRow)
    }
}
