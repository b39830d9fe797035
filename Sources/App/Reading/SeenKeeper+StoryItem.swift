import ATProto
import FrontState

extension SeenKeeper {
    /// Marks a served story as seen: the viewer's page model is the front's, so this stays beside the pages while the
    /// marks themselves are `FrontState`'s.
    func mark(_ item: StoryItem, session: BrowserSession, now: UTCTime) {
        guard let uri = try? ATURI(item.uri), let created = UTCTime(iso8601: item.createdAt) else { return }
        mark(uri: uri, createdAt: created, session: session, now: now)
    }
}
