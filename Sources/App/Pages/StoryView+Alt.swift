import Lexicon

extension StoryView {
    /// The photo's alt text: what its author says it shows, when they said, or else `generated` ("Photo by Maya,
    /// 3 hours ago"). Every page that shows a story's photo asks here, so a description is heard everywhere.
    func alt(or generated: String) -> String {
        guard let described = photoDescription, !described.isEmpty else { return generated }
        return described
    }

    /// What the story's media is, in the words of its generated alt text: "Photo", or "Video" for a clip.
    var mediaNoun: String { video == nil ? "Photo" : "Video" }
}
