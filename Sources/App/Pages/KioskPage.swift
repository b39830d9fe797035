import ATProto
import HatkClient
import Lexicon

/// `/kiosk`: every active story in a loop, for a screen on the wall.
enum KioskPage {
    /// One story and who posted it.
    struct Slide: Encodable, Equatable {
        var item: StoryItem
        var author: AuthorTile
    }

    /// `/api/kiosk`'s answer.
    struct Playlist: Encodable, Equatable {
        var slides: [Slide]
    }

    struct Model: Encodable, Equatable {
        var slide: Slide?
        var position: String
        var dataHref: String
        /// The no-script fallback's next page, reached by a timed refresh.
        var nextHref: String
        var refreshMs: Int
        var durationMs: Int
        var durationSeconds: Int
    }

    /// Kiosks re-read the author list this often unless told otherwise (`?refresh=` seconds, 2 to 3600).
    static let defaultRefreshSeconds = 60

    /// `?authors=a.example,did:plc:…` as a list of handles or DIDs; nil shows everyone.
    static func authorFilter(_ raw: String?) -> [String]? {
        let names = (raw ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
        return names.isEmpty ? nil : Array(names.prefix(50))
    }

    /// Authors newest first, as the strip shows them, each author's stories oldest first. Hidden stories never
    /// play, and warned ones only when the kiosk's address opts in (`showWarned`, from `?warned=show`): nobody is at
    /// a wall screen to tap "Show".
    static func slides(
        reader: any StoryReading, authors filter: [String]?, now: UTCTime, visibility: StoryFilter = .anonymous,
        showWarned: Bool = false
    ) async throws -> [Slide] {
        let authors = visibility.authors(try await reader.storyAuthors()).filter { author in
            filter.map { $0.contains(author.profile.handle.lowercased()) || $0.contains(author.profile.did.lowercased()) }
                ?? true
        }
        let perAuthor = try await ActiveStories.of(authors, reader: reader)
        return perAuthor.flatMap { all in
            let stories = visibility.visible(all).filter { story in
                switch visibility.decision(story).action {
                case .warnMedia, .warnContent: showWarned
                default: true
                }
            }
            return stories.enumerated().map { i, story in
                Slide(
                    item: StoryItem(
                        story, index: i, count: stories.count, href: "", seen: false, mine: false, now: now,
                        decision: visibility.decision(story), revealed: showWarned),
                    author: AuthorTile(profile: story.creator, storyCount: stories.count, href: ""))
            }
        }
    }

    static func model(
        _ slides: [Slide], index: Int, authors: String?, refreshSeconds: Int?, durationMs: Int, showWarned: Bool = false
    ) -> Model {
        let refresh = min(3600, max(2, refreshSeconds ?? defaultRefreshSeconds))
        let current = slides.isEmpty ? 0 : ((index % slides.count) + slides.count) % slides.count
        let filter: (String, String?) = ("authors", authors.flatMap { $0.isEmpty ? nil : $0 })
        let warned: (String, String?) = ("warned", showWarned ? "show" : nil)
        return Model(
            slide: slides.isEmpty ? nil : slides[current],
            position: slides.isEmpty ? "" : "\(current + 1) of \(slides.count)",
            dataHref: SiteURL.kioskData.with([filter, warned]),
            nextHref: SiteURL.kiosk.with([filter, ("i", String(current + 1)), ("refresh", refreshSeconds.map(String.init)), warned]),
            refreshMs: refresh * 1000, durationMs: durationMs, durationSeconds: max(1, durationMs / 1000))
    }
}
