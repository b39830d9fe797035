import ATProto
import HTTPServer
import Imaging
import Lexicon
import Readers
import Synchronization
import TestSupport
import Testing

@testable import App

/// Issue 25, N3: link previews are made on their own small pool, and each client address may have only so many
/// made a minute; previews already made are served to anyone who may see the story without counting.
@Suite struct PreviewLimitTests {
    /// Photos from memory, counting the fetches (each one a download on `--appview`).
    final class CountingPhotos: PhotoSource {
        let fetches = Atomic<Int>(0)
        let jpeg: [UInt8]

        init() throws {
            jpeg = try Imaging.encodeJPEG(RGBImage(width: 64, height: 48, red: 200, green: 120, blue: 40), quality: 80)
        }

        func image(at address: String) async throws(ReadError) -> [UInt8] {
            fetches.add(1, ordering: .relaxed)
            return jpeg
        }
    }

    @Test(
        "a client past its previews for the minute gets 429 with Retry-After before any photo is fetched; made ones stay free, other clients unaffected"
    )
    func previewsPerClient() async throws {
        let photos = try CountingPhotos()
        var settings = FrontSettings()
        settings.previewsPerMinute = 2
        let front = try FrontHarness(settings: settings, photos: photos)
        let maya = front.stories.addAuthor(handle: "maya.home.test", count: 3, now: front.clock.now)
        func preview(_ index: Int, from address: String = "203.0.113.7") async -> Response {
            let story = front.stories.story(maya, index)
            return await front.send(.get, SiteURL.storyPreview(did: maya.rawValue, rkey: story.rkey).path, from: address)
        }
        for index in 0..<2 {
            let made = await preview(index)
            #expect(made.status == .ok)
            #expect(made.headers["Content-Type"] == "image/jpeg")
        }
        let refused = await preview(2)
        #expect(refused.status == .tooManyRequests)
        let wait = try #require(Int(refused.headers["Retry-After"] ?? ""))
        #expect((1...60).contains(wait))
        #expect(refused.text.contains("many previews"))
        #expect(photos.fetches.load(ordering: .relaxed) == 2)

        #expect(await preview(0).status == .ok, "a preview already made costs nothing")
        #expect(await preview(2, from: "198.51.100.9").status == .ok, "another client has its own allowance")
        front.clock.advance(seconds: 61)
        #expect(await preview(1, from: "203.0.113.7").status == .ok)
        #expect(photos.fetches.load(ordering: .relaxed) == 3)
    }
}
