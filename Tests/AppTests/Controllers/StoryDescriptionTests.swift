import ATProto
import Foundation
import HTTPServer
import Imaging
import Lexicon
import Synchronization
import TestSupport
import Testing

@testable import App

/// Issue 26: a story's photo can be described on the create form; the description is the photo's alt text
/// everywhere, and a caption under it when its author chooses.
@Suite struct StoryDescriptionTests {
    /// Descriptions kept in memory, as the embedded household keeps them in its backend.
    final class KeptDescriptions: StoryDescribing {
        let kept = Mutex<[(story: String, author: String, text: String, caption: Bool)]>([])
        let maxLength = 1_000

        func describe(story uri: String, by author: String, text: String, caption: Bool) throws {
            kept.withLock { $0.append((uri, author, text, caption)) }
        }
    }

    static let did = try! DID("did:plc:" + String(repeating: "m", count: 24))

    func post(_ front: FrontHarness, _ fields: [(String, String)]) async throws -> Response {
        let session = try front.signIn(did: Self.did, handle: "maya.home.test")
        let csrf = String(repeating: "c", count: 43)
        let photo = try Imaging.encodeJPEG(RGBImage(width: 64, height: 48, pixels: [UInt8](repeating: 120, count: 64 * 48 * 3)), quality: 90)
        let (type, body) = CreateFormTests.multipart([("csrf", csrf)] + fields, file: ("photo", photo))
        return await front.send(
            .post, "/create",
            headers: [("Cookie", "gs_session=\(session); gs_csrf=\(csrf)"), ("Content-Type", type), ("Origin", "http://box.local:8080")],
            body: body)
    }

    @Test("the create form offers a description where it can be kept; a posted one is kept for the new story, by its author")
    func describedOnTheCreateForm() async throws {
        let stub = try StubHatk()
        let kept = KeptDescriptions()
        let front = try FrontHarness(writer: stub.url, descriptions: kept)
        let session = try front.signIn(did: Self.did, handle: "maya.home.test")
        let form = await front.send(.get, "/create", headers: [("Cookie", "gs_session=\(session)")])
        #expect(form.text.contains(#"<textarea id="description" name="description""#))
        #expect(form.text.contains(#"name="caption""#))

        let posted = try await post(front, [("description", "  Ada’s first snowman  "), ("caption", "on")])
        #expect(posted.status == .seeOther)
        let record = try #require(stub.calls("dev.hatk.createRecord").first?.body["record"])
        #expect(record["photoDescription"] == nil && record["description"] == nil, "Grain's record has no place for it")
        let entry = try #require(kept.kept.withLock { $0.first })
        #expect(entry.text == "Ada’s first snowman" && entry.caption && entry.author == Self.did.rawValue)
        #expect(posted.location?.hasSuffix(try ATURI(entry.story).rkey) == true)
        await stub.stop()
    }

    @Test("a description over 1,000 characters gets the form back, with the text kept, and nothing is posted")
    func tooLongIsRefusedBeforePosting() async throws {
        let stub = try StubHatk()
        let kept = KeptDescriptions()
        let front = try FrontHarness(writer: stub.url, descriptions: kept)
        let long = String(repeating: "snow ", count: 201)
        let answer = try await post(front, [("description", long)])
        #expect(answer.status == .unprocessableContent)
        #expect(answer.text.contains("at most 1000 are kept"))
        #expect(answer.text.contains(String(long.prefix(40))), "what was typed is not lost")
        #expect(stub.calls("dev.hatk.uploadBlob").isEmpty && stub.calls("dev.hatk.createRecord").isEmpty)
        #expect(kept.kept.withLock { $0.isEmpty })
        await stub.stop()
    }

    @Test("without a place to keep it (a remote hatk) the form has no description field")
    func noFieldWithoutAKeeper() async throws {
        let front = try FrontHarness()
        let session = try front.signIn(did: Self.did, handle: "maya.home.test")
        let form = await front.send(.get, "/create", headers: [("Cookie", "gs_session=\(session)")])
        #expect(!form.text.contains(#"name="description""#))
    }

    @Test("a description is the photo's alt in the viewer, Today and the profile, and a caption only when chosen; never behind a warning")
    func altEverywhere() async throws {
        let front = try FrontHarness()
        let maya = front.stories.addAuthor(handle: "maya.home.test", count: 2, now: front.clock.now)
        front.stories.update(maya, story: 0) {
            $0.photoDescription = "Two herons on the frozen pond"
            $0.showsCaption = true
        }
        front.stories.update(maya, story: 1) { $0.photoDescription = "A <b>red</b> kite" }
        let story = front.stories.story(maya, 0)
        let page = await front.page(SiteURL.story(did: maya.rawValue, rkey: story.rkey).path)
        #expect(page.text.contains(#"alt="Two herons on the frozen pond""#))
        #expect(page.text.contains(#"<figcaption class="viewer__caption" data-caption>Two herons on the frozen pond</figcaption>"#))
        let other = await front.page(SiteURL.story(did: maya.rawValue, rkey: front.stories.story(maya, 1).rkey).path)
        #expect(other.text.contains(#"alt="A &lt;b&gt;red&lt;/b&gt; kite""#))
        #expect(other.text.contains(#"data-caption hidden></figcaption>"#), "no caption unless chosen")
        let home = await front.page(SiteURL.home.path)
        #expect(home.text.contains(#"alt="Two herons on the frozen pond""#))
        let profile = await front.page(SiteURL.profile(actor: "maya.home.test").path)
        #expect(profile.text.contains(#"alt="Two herons on the frozen pond""#))

        VisibilityTests.labelled(front, maya, index: 0, "nudity")
        let warned = await front.page(SiteURL.story(did: maya.rawValue, rkey: story.rkey).path)
        #expect(!warned.text.contains("herons"), "a warned photo's description waits behind its warning too")
    }
}
