import Lexicon

extension StoryView {
    /// The photo's alt text: what its author says it shows, when they said, or else `generated` ("Photo by Maya,
    /// 3 hours ago"). Every page that shows a story's photo asks here, so a description is heard everywhere.
    func alt(or generated: String) -> String {
        guard let described = photoDescription, !described.isEmpty else { return generated }
        return described
    }
}
