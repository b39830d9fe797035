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
    /// True when the visitor has seen this author's newest story: a grey ring, sorted last.
    var seen: Bool
    /// The newest story's time, so the script can apply an anonymous visitor's own seen marks.
    var latestAt: String?
    /// The accessible name of the strip link: who, and whether anything is new.
    var label: String
    /// Where the viewer's menu mutes or blocks this author (POST forms).
    var muteHref: String
    var blockHref: String
    /// Loaded only when scrolled near: tiles past the first screen (a network's strip can list every author).
    var lazy = false

    init(profile: ProfileView, storyCount: Int, href: String, seen: Bool = false, latestAt: String? = nil) {
        did = profile.did
        name = profile.name
        handle = profile.handle
        avatar = profile.avatar
        initial = profile.name.first.map { String($0).uppercased() } ?? "?"
        self.href = href
        self.storyCount = storyCount
        self.seen = seen
        self.latestAt = latestAt
        label = "\(profile.name), \(Plural.count(storyCount, "story", "stories")), \(seen ? "seen" : "new")"
        muteHref = SiteURL.mute(actor: profile.did).path
        blockHref = SiteURL.block(actor: profile.did).path
    }
}
