public import ATProto
import Foundation
public import Lexicon

extension BackendQueries {
    /// The most stories one memories read returns: a household's few years of a week's worth of days.
    static let memoryLimit = 500

    /// Every visible story of the household created on one of `monthDays` (`MM-DD`, UTC) before `cutoff`, oldest
    /// first, without authors the viewer muted or blocked either way: the in-process source of "On this day" (the
    /// front picks the years and the nearest day). Not a hatk method: a remote hatk's memories come from archives.
    public func stories(
        onMonthDays monthDays: [String], before cutoff: UTCTime, viewer: DID?, imageBase: String
    ) throws
        -> StoriesOutput
    {
        let views = ViewBuilder(imageBase: imageBase)
        let now = clock()
        var creators: [String: ProfileView] = [:]
        let rows = try store.memories.stories(onMonthDays: monthDays, before: cutoff, viewer: viewer, limit: Self.memoryLimit)
        let stories = try rows.compactMap { row -> StoryView? in
            let did = row.record.did
            if creators[did] == nil {
                guard let account = try store.accounts.account(did) else { return nil }
                creators[did] = try creatorView(account, views)
            }
            return creators[did].flatMap { views.storyView(row, creator: $0, now: now, full: true) }
        }
        return StoriesOutput(stories: stories)
    }
}
