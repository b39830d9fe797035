import ATProto
import Foundation
import Lexicon
import TestSupport
import Testing

@testable import App

/// The blurred copy of the photo that fills what the photo leaves, in the viewer and the kiosk: an image in the page
/// itself, so it shows without scripts and without a style attribute, and never a glimpse of a warned photo.
@Suite struct PhotoFillTests {
    /// The `src` of the first `<img>` whose attributes start with `prefix`, or nil.
    static func source(in html: String, after prefix: String) -> String? {
        guard let start = html.range(of: "<img " + prefix) else { return nil }
        let tag = html[start.upperBound...].prefix { $0 != ">" }
        guard let open = tag.range(of: #"src=""#) else { return nil }
        return String(tag[open.upperBound...].prefix { $0 != "\"" })
    }

    @Test("the viewer's fill is its photo; a warned story's is its stand-in, hidden by the warning until Show")
    func viewer() async throws {
        let front = try FrontHarness()
        let maya = front.stories.addAuthor(handle: "maya.home.test", count: 2, now: front.clock.now)
        VisibilityTests.labelled(front, maya, index: 0, "nudity")
        let warned = front.stories.story(maya, 0), plain = front.stories.story(maya, 1)

        let page = await front.page(SiteURL.story(did: maya.rawValue, rkey: plain.rkey).path)
        #expect(Self.source(in: page.text, after: #"class="photo-fill""#) == plain.fullsize)
        #expect(!page.text.contains("data-warned"))

        let behind = await front.page(SiteURL.story(did: maya.rawValue, rkey: warned.rkey).path)
        #expect(behind.text.contains(#"data-warned="true""#), "app.css hides the fill of a warned story")
        #expect(Self.source(in: behind.text, after: #"class="photo-fill""#) == SiteURL.storyBlurred(did: maya.rawValue, rkey: warned.rkey).path)
        #expect(!behind.text.contains(#"src="\#(warned.fullsize)""#))

        let shown = await front.page(SiteURL.story(did: maya.rawValue, rkey: warned.rkey).with([("show", "1")]))
        #expect(Self.source(in: shown.text, after: #"class="photo-fill""#) == warned.fullsize)
        #expect(!shown.text.contains("data-warned"))
    }

    @Test("the kiosk's fill is the first slide's photo in the page; an empty kiosk's has no source")
    func kiosk() async throws {
        let front = try FrontHarness()
        front.stories.addAuthor(handle: "maya.home.test", count: 1, now: front.clock.now)
        let page = await front.page(SiteURL.kiosk.path)
        let photo = try #require(Self.source(in: page.text, after: #"class="kiosk__photo""#))
        #expect(Self.source(in: page.text, after: #"class="photo-fill""#) == photo)
        #expect(page.text.contains("data-kiosk-backdrop"))

        let empty = await front.page(SiteURL.kiosk.with([("authors", "nobody.example")]))
        #expect(empty.text.contains(#"<img class="photo-fill" alt="" data-kiosk-backdrop>"#))
    }
}
