import ATProto
import Foundation
import HatkClient
import Lexicon
import Readers

/// `/kiosk`: every active story in a loop, for a screen on the wall.
enum KioskPage {
    /// One story and who posted it.
    struct Slide: Encodable, Equatable {
        var item: StoryItem
        var author: AuthorTile
        /// The QR code of the story's permalink ("open it on your phone").
        var qr: String
        /// Set for a memory ("1 year ago"): it plays whatever its age, never dropped as expired.
        var memory: String?
    }

    /// `/api/kiosk`'s answer.
    struct Playlist: Encodable, Equatable {
        var slides: [Slide]
    }

    struct Model: Encodable, Equatable {
        var slide: Slide?
        var position: String
        var dataHref: String
        /// `22:00-07:00`, or empty: the script's night schedule, in the tablet's own time.
        var night: String
        var clock: Bool
        var overlay: Bool
        var pair: Bool
        /// The no-script fallback's next page, reached by a timed refresh.
        var nextHref: String
        var refreshMs: Int
        var durationMs: Int
        /// How long the no-script page waits before the next: a photo's duration, or the whole of a clip.
        var durationSeconds: Int
        /// Where Exit leads; nil on a paired screen, which has nowhere else to go.
        var exitHref: String? = SiteURL.home.path
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
                slide(story, index: i, count: stories.count, now: now, visibility: visibility, showWarned: showWarned)
            }
        }
    }

    static func slide(
        _ story: StoryView, index: Int, count: Int, now: UTCTime, visibility: StoryFilter, showWarned: Bool, memory: String? = nil
    ) -> Slide {
        var item = StoryItem(
            story, index: index, count: count, href: "", seen: false, mine: false, now: now, decision: visibility.decision(story),
            revealed: showWarned)
        item.memory = memory
        return Slide(
            item: item, author: AuthorTile(profile: story.creator, storyCount: count, href: ""),
            qr: SiteURL.storyQR(did: story.creator.did, rkey: story.rkey).path, memory: memory)
    }

    /// A member's memories as slides (warned ones only when the kiosk opts in), oldest year last.
    static func memorySlides(_ groups: [Memories.Group], now: UTCTime, visibility: StoryFilter, showWarned: Bool) -> [Slide] {
        groups.flatMap { group in
            group.stories.filter { story in
                switch visibility.decision(story).action {
                case .warnMedia, .warnContent: showWarned
                default: true
                }
            }.enumerated().map { i, story in
                slide(story, index: i, count: group.stories.count, now: now, visibility: visibility, showWarned: showWarned, memory: group.label)
            }
        }
    }

    /// Memories spread evenly between today's stories (all of them when there is nothing from today).
    static func interleave(_ today: [Slide], memories: [Slide]) -> [Slide] {
        guard !today.isEmpty, !memories.isEmpty else { return today + memories }
        let step = max(1, today.count / memories.count)
        var result: [Slide] = []
        var left = memories[...]
        for (i, slide) in today.enumerated() {
            result.append(slide)
            if (i + 1) % step == 0, let memory = left.popFirst() { result.append(memory) }
        }
        return result + left
    }

    static func model(_ slides: [Slide], index: Int, options: KioskOptions, durationMs: Int) -> Model {
        let refresh = min(3600, max(2, options.refreshSeconds ?? defaultRefreshSeconds))
        let current = slides.isEmpty ? 0 : ((index % slides.count) + slides.count) % slides.count
        let playlist = options.items.filter { ["authors", "warned", "memories"].contains($0.0) }
        let slide = slides.isEmpty ? nil : slides[current]
        let seconds = slide?.item.durationMs.map { max(1, ($0 + 999) / 1000) } ?? max(1, durationMs / 1000)
        return Model(
            slide: slide,
            position: slides.isEmpty ? "" : "\(current + 1) of \(slides.count)",
            dataHref: SiteURL.kioskData.with(playlist), night: options.night?.description ?? "", clock: options.clock,
            overlay: options.overlay, pair: options.pair,
            nextHref: SiteURL.kiosk.with(options.items + [("i", String(current + 1))]),
            refreshMs: refresh * 1000, durationMs: durationMs, durationSeconds: seconds)
    }
}
