import HTTPServer
import Imaging
import Lexicon

/// `/help`: how stories work on this server, for anyone, members and strangers alike. It shows only what the owner
/// chose to show strangers (the household's name and contact) and the server's own rules, nothing of its members.
extension StoryPages {
    struct HelpPage: Encodable {
        var name: String
        /// Who sees a story posted here, in words.
        var audience: String
        var photoSeconds: Int
        var storyHours: Int
        var formats: String
        /// Whether joining takes an invitation (a household) or a Grain account (a remote hatk).
        var byInvitation: Bool
        var contact: String?
    }

    /// `GET /help`.
    func help(_ context: RequestContext) async throws -> Response {
        let model = HelpPage(
            name: settings.householdName ?? (settings.audience == .household ? "This household" : "This server"),
            audience: settings.audienceNote, photoSeconds: settings.photoDurationMs / 1000,
            storyHours: Int(StoryRecord.lifetime.components.seconds / 3600), formats: ImageFormat.namesForPeople,
            byInvitation: settings.audience == .household, contact: settings.householdContact)
        return try pages.render("help", title: "How stories work here", model: model, context: context)
    }
}
