import Lexicon

/// How long a clip plays, in the words a thumbnail and a screen reader use.
enum ClipLength {
    /// Whole seconds, to the nearest, and at least one: a clip of 0.4 s still says it lasts.
    static func seconds(_ milliseconds: Int) -> Int { max(1, (milliseconds + 500) / 1000) }

    /// "0:12", "1:05".
    static func label(_ milliseconds: Int) -> String {
        let seconds = seconds(milliseconds)
        let rest = seconds % 60
        return "\(seconds / 60):\(rest < 10 ? "0" : "")\(rest)"
    }

    /// "Video, 12 seconds": what a screen reader says for the badge.
    static func spoken(_ milliseconds: Int) -> String { "Video, " + Plural.count(seconds(milliseconds), "second") }
}

/// The badge a thumbnail of a clip carries ("▶ 0:12"), with its words for screen readers.
struct ClipBadge: Encodable, Equatable {
    /// "0:12".
    var label: String
    /// "Video, 12 seconds".
    var spoken: String

    init(milliseconds: Int) {
        label = ClipLength.label(milliseconds)
        spoken = ClipLength.spoken(milliseconds)
    }

    /// The badge of a story whose media is a clip; nil for a photo.
    init?(_ story: StoryView) {
        guard let video = story.video else { return nil }
        self.init(milliseconds: video.durationMs)
    }
}
