import HTTPServer
import TestSupport
import Testing

@testable import App

/// `/help` and the owner's contact line (`--household-contact`): what a stranger may read about the server.
@Suite struct HelpPageTests {
    static func front(_ audience: Audience, name: String? = nil, contact: String? = nil) throws -> FrontHarness {
        var settings = FrontSettings()
        settings.audience = audience
        settings.householdName = name
        settings.householdContact = contact
        settings.photoDurationMs = 7000
        return try FrontHarness(settings: settings)
    }

    @Test("a stranger at a household's /help reads its name, who sees stories, the rules and the owner's contact, escaped; nothing of its members")
    func strangerReadsTheRules() async throws {
        let front = try Self.front(.household, name: "The Costas", contact: "Ask Ana <ana@example.com> for an invitation")
        _ = front.stories.addAuthor(handle: "maya.home.test", count: 2, now: front.clock.now)
        let help = await front.page("/help")
        #expect(help.status == .ok)
        #expect(help.text.contains("The Costas shares photo stories. Only this household’s members see your story, for 24 hours."))
        #expect(help.text.contains("A story lasts 24 hours") && help.text.contains("each photo shows for 7 seconds"))
        #expect(help.text.contains("open the invitation link a member sent you"))
        #expect(help.text.contains("<p data-contact>Ask Ana &lt;ana@example.com&gt; for an invitation</p>"), "\(help.text)")
        #expect(!help.text.lowercased().contains("maya"))
    }

    @Test("without a contact neither page shows one; a public server's /help says stories are public and sign-in is by handle")
    func publicServerAndNoContact() async throws {
        let front = try Self.front(.public, name: nil, contact: nil)
        let help = await front.page("/help")
        #expect(help.status == .ok && !help.text.contains("data-contact"))
        #expect(help.text.contains("This server shares photo stories. Stories on Grain are public"))
        #expect(help.text.contains("Sign in with your Grain or Bluesky handle"))
    }

    @Test("the front door shows the owner's contact and links to /help")
    func frontDoorShowsContact() async throws {
        let front = try Self.front(.household, contact: "Text Ana on 0170 555 0101")
        let door = await front.page("/")
        #expect(door.text.contains("data-front-door") && door.text.contains("<p data-contact>Text Ana on 0170 555 0101</p>"))
        #expect(door.text.contains("href=\"\(SiteURL.help.path)\""))
        let bare = try Self.front(.household)
        #expect(await !bare.page("/").text.contains("data-contact"))
    }
}
