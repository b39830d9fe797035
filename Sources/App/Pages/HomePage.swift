import FrontState
import HatkClient
import Lexicon

/// `/`: the story strip, authors with something new first.
enum HomePage {
    /// Tiles a wide screen shows before scrolling; avatars after these load lazily.
    static let firstScreen = 12

    /// The first tile: one's own story. "+" creates; with active stories a menu also offers viewing them.
    struct YourStory: Encodable, Equatable {
        var createHref: String
        /// Set when the signed-in person has active stories.
        var viewHref: String?
        var avatar: AuthorTile?
    }

    struct Model: Encodable, Equatable {
        /// Nil for a guest, who never posts and so never appears in the strip.
        var you: YourStory?
        var authors: [AuthorTile]
        /// Every story of the strip's authors, newest first.
        var today: [TodayGrid.Tile] = []
        /// "On this day", for signed-in members with memories.
        var memories: MemoriesPage.Model?
        var signedIn: Bool
        var durationMs: Int
        var shell: StoryPage.Model
        /// What the person just did, said until they move on (`?done=`, one of `notices`).
        var notice: String?
    }

    /// The sentences `/?done=` may show: fixed words, never text from the address.
    static let notices = [
        "signed-out": "You are signed out on this device.",
        "deleted": "Your story was deleted. It is gone from everyone’s strip.",
    ]

    /// - Parameters:
    ///   - authors: the visitor's walk, newest first, with muted and blocked authors already left out.
    ///   - canPost: false for a guest: no "Your story" tile.
    static func model(
        _ authors: [StoryAuthor], seen: SeenState, viewer: String?, canPost: Bool = true, csrf: String? = nil,
        durationMs: Int = StoryPage.photoDuration * 1000, chrome: StoryPage.Chrome = .anonymous
    ) -> Model {
        let authors = seen.ordered(authors)
        let mine = authors.first { $0.profile.did == viewer }
        let tile = { (author: StoryAuthor) in
            AuthorTile(
                profile: author.profile, storyCount: author.storyCount,
                href: SiteURL.stories(actor: author.profile.did).path, seen: seen.hasSeenAll(of: author),
                latestAt: author.latestAt)
        }
        return Model(
            you: canPost
                ? YourStory(
                    createHref: SiteURL.create.path, viewHref: mine.map { SiteURL.stories(actor: $0.profile.did).path },
                    avatar: mine.map(tile)) : nil,
            authors: authors.filter { $0.profile.did != viewer }.enumerated().map { index, author in
                var made = tile(author)
                made.lazy = index >= firstScreen
                return made
            },
            signedIn: viewer != nil, durationMs: durationMs,
            shell: StoryPage.shell(durationMs: durationMs, csrf: csrf, signedIn: viewer != nil, chrome: chrome))
    }
}
