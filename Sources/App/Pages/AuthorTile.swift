import Lexicon

/// An author as the strip and the viewer header show them: ringed avatar, name, link.
struct AuthorTile: Encodable, Equatable {
    var did: String
    var name: String
    var handle: String
    var avatar: String?
    /// The first letter of the name, shown when there is no avatar.
    var initial: String
    var href: String
    var storyCount: Int
    /// The accessible name of the strip link: who, and what is waiting.
    var label: String

    init(profile: ProfileView, storyCount: Int, href: String) {
        did = profile.did
        name = profile.name
        handle = profile.handle
        avatar = profile.avatar
        initial = profile.name.first.map { String($0).uppercased() } ?? "?"
        self.href = href
        self.storyCount = storyCount
        label = "\(profile.name), \(storyCount) \(storyCount == 1 ? "story" : "stories")"
    }
}
