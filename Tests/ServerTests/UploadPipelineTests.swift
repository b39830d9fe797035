import ATProto
import Backend
import Foundation
import Geo
import Imaging
import Lexicon
import TestSupport
import Testing

@testable import App
@testable import Server

@Suite(.serialized)
struct UploadPipelineTests {
    func postForm(_ browser: Browser, photo: [UInt8], type: String, fields: [(String, String)]) async throws -> Browser.Page {
        let form = try await browser.get("/create")
        let csrf = try #require(captures(#"name="csrf" value="([^"]+)""#, in: form.body).first)
        return try await browser.postMultipart("/create", fields: [("csrf", csrf)] + fields, file: ("photo", "photo", type, photo))
    }

    func latestStory(_ live: LiveApp, handle: String) throws -> StoryRecord {
        let backend = try #require(live.app.backend)
        let did = try #require(try backend.store.accounts.account(handle)).did
        let stored = try #require(try backend.store.records.records(of: did.rawValue, collection: StoryRecord.collection).first)
        return try stored.value.decode(as: StoryRecord.self)
    }

    @Test("a rotated phone photo with GPS is oriented, fitted, stripped, and located by H3 cell and place, with labels")
    func gpsPhoto() async throws {
        let live = try await LiveApp(demo: true)
        defer { Task { await live.stop() } }
        let browser = Browser(base: live.base)
        _ = try await SignInAndPostTests().signIn(browser, handle: "maya.home.test", password: "maya-stories")
        // Stored 2400×1600 with orientation 6: upright it is a 1600×2400 portrait.
        let photo = try ExifJPEG.make(width: 2400, height: 1600, orientation: 6, latitude: 38.7223, longitude: -9.1393)
        let posted = try await postForm(
            browser, photo: photo, type: "image/jpeg", fields: [("useLocation", "on"), ("location", ""), ("labels", "nudity"), ("labels", "bogus")])
        #expect(posted.status == 303)
        let record = try latestStory(live, handle: "maya.home.test")
        #expect(record.aspectRatio == AspectRatio(width: 1333, height: 2000))
        #expect(record.location?.value == H3.cell(latitude: 38.7223, longitude: -9.1393, resolution: 10)?.description)
        #expect(record.location?.value.hasPrefix("8a") == true)
        #expect(record.labels?.values.map(\.val) == ["nudity"], "only the three known labels are kept")
        if FileManager.default.fileExists(atPath: live.app.configuration.placesCSV) {
            #expect(record.address?.country == "PT")
            #expect(record.location?.name?.contains("Lisbon") == true)
        }
        let blob = try #require(live.app.backend?.blobs.path(cid: record.media.cid, preset: .fullsize))
        let published = try [UInt8](Data(contentsOf: URL(fileURLWithPath: blob)))
        #expect(published.count <= 900_000)
        #expect(Exif.read(published) == ExifMetadata(), "the published photo carries no EXIF, so no GPS")
        #expect(try Imaging.readInfo(published).width == 1333)
    }

    @Test("a HEIC from a phone goes through the form to an upright JPEG with its GPS as the place, read from disk, nothing left behind")
    func heicThroughTheForm() async throws {
        let live = try await LiveApp(demo: true)
        defer { Task { await live.stop() } }
        let browser = Browser(base: live.base)
        _ = try await SignInAndPostTests().signIn(browser, handle: "maya.home.test", password: "maya-stories")
        // A portrait JPEG with GPS, turned into a HEIC by libheif's own encoder, as a phone would store it.
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("heic-\(UUID().uuidString)")
        let jpeg = try ExifJPEG.make(width: 1200, height: 1600, orientation: 1, latitude: 38.7223, longitude: -9.1393)
        try Data(jpeg).write(to: source.appendingPathExtension("jpg"))
        let encoder = Process()
        encoder.executableURL = URL(fileURLWithPath: "/usr/bin/heif-enc")
        encoder.arguments = ["-q", "60", source.appendingPathExtension("jpg").path, "-o", source.appendingPathExtension("heic").path]
        try encoder.run()
        encoder.waitUntilExit()
        try #require(encoder.terminationStatus == 0, "heif-enc (libheif-examples) makes the fixture")
        let heic = try [UInt8](Data(contentsOf: source.appendingPathExtension("heic")))
        #expect(Imaging.sniff(heic) == .heic)

        let posted = try await postForm(browser, photo: heic, type: "image/heic", fields: [("useLocation", "on"), ("location", "")])
        #expect(posted.status == 303)
        let record = try latestStory(live, handle: "maya.home.test")
        #expect(record.aspectRatio == AspectRatio(width: 1200, height: 1600))
        #expect(record.location?.value == H3.cell(latitude: 38.7223, longitude: -9.1393, resolution: 10)?.description)
        let blob = try #require(live.app.backend?.blobs.path(cid: record.media.cid, preset: .fullsize))
        let published = try [UInt8](Data(contentsOf: URL(fileURLWithPath: blob)))
        #expect(Imaging.sniff(published) == .jpeg)
        #expect(Exif.read(published) == ExifMetadata())
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: live.dataDirectory + "/uploads")
        #expect(leftovers.isEmpty, "the upload's body and its photo file are removed: \(leftovers)")
    }

    @Test("a file that is no photo gets the form again, naming the formats that work")
    func notAPhoto() async throws {
        let live = try await LiveApp(demo: true)
        defer { Task { await live.stop() } }
        let browser = Browser(base: live.base)
        _ = try await SignInAndPostTests().signIn(browser, handle: "maya.home.test", password: "maya-stories")
        let posted = try await postForm(browser, photo: Array("%PDF-1.7 not a photo".utf8), type: "application/pdf", fields: [])
        #expect(posted.status == 415)
        #expect(posted.body.contains("JPEG, PNG, HEIC, AVIF or WebP"))
        #expect(posted.body.contains(#"name="photo""#))
    }

    @Test("a typed place name replaces the photo's; dropping the location publishes none; PNG uploads work")
    func locationChoices() async throws {
        let live = try await LiveApp(demo: true)
        defer { Task { await live.stop() } }
        let browser = Browser(base: live.base)
        _ = try await SignInAndPostTests().signIn(browser, handle: "ines.home.test", password: "ines-stories")
        let photo = try ExifJPEG.make(width: 800, height: 600, orientation: 1, latitude: 48.8584, longitude: 2.2945)
        _ = try await postForm(browser, photo: photo, type: "image/jpeg", fields: [("useLocation", "on"), ("location", "Tour Eiffel")])
        let named = try latestStory(live, handle: "ines.home.test")
        #expect(named.location?.name == "Tour Eiffel")
        #expect(named.location?.value == H3.cell(latitude: 48.8584, longitude: 2.2945, resolution: 10)?.description)
        _ = try await postForm(browser, photo: photo, type: "image/jpeg", fields: [("location", "ignored")])
        let dropped = try latestStory(live, handle: "ines.home.test")
        #expect(dropped.location == nil && dropped.address == nil)

        let png = try #require(FileManager.default.contents(atPath: demoPhotos + "/coffee.png"))
        let posted = try await postForm(browser, photo: [UInt8](png), type: "image/png", fields: [])
        #expect(posted.status == 303)
        let fromPNG = try latestStory(live, handle: "ines.home.test")
        #expect(fromPNG.media.mimeType == "image/jpeg")
        #expect(fromPNG.aspectRatio == AspectRatio(width: 600, height: 400))
    }

    @Test("the embedded household has no Bluesky: the form does not offer it, a crossPost field is ignored, and nothing claims a post")
    func noCrossPostInTheHousehold() async throws {
        let live = try await LiveApp(demo: true)
        defer { Task { await live.stop() } }
        let browser = Browser(base: live.base)
        _ = try await SignInAndPostTests().signIn(browser, handle: "jonas.home.test", password: "jonas-stories")
        #expect(!(try await browser.get("/create")).body.contains(#"name="crossPost""#))
        let photo = try ExifJPEG.make(width: 640, height: 480, orientation: 1, latitude: 41.1496, longitude: -8.6109)
        let posted = try await postForm(browser, photo: photo, type: "image/jpeg", fields: [("crossPost", "on")])
        let location = try #require(posted.location)
        #expect(!location.contains("posted="))
        #expect(!(try await browser.get(location + "?posted=bluesky")).body.contains("Bluesky"))
        let backend = try #require(live.app.backend)
        let did = try #require(try backend.store.accounts.account("jonas.home.test")).did
        #expect(try backend.store.records.records(of: did.rawValue, collection: CrossPost.collection).isEmpty)
    }

    @Test("the image tool prints one JSON line and the h3 tool one cell per line")
    func tools() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tools-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let input = dir.appendingPathComponent("in.jpg").path
        _ = FileManager.default.createFile(
            atPath: input, contents: Data(try ExifJPEG.make(width: 3000, height: 2000, orientation: 8, latitude: -33.8688, longitude: 151.2093)))
        let line = try Tools.processImage(
            input: input, output: dir.appendingPathComponent("out.jpg").path, maxBytes: 300_000, placesCSV: "/nonexistent")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let (w, h) = (json["width"] as? Int ?? 0, json["height"] as? Int ?? 0)
        #expect(h <= 2000 && w < h && abs(Double(w) / Double(h) - 2.0 / 3.0) < 0.01, "oriented to portrait: \(w)×\(h)")
        #expect((json["bytes"] as? Int ?? .max) <= 300_000)
        #expect(json["orientation"] as? Int == 8)
        #expect(json["h3"] as? String == H3.cell(latitude: -33.8688, longitude: 151.2093, resolution: 10)?.description)
        #expect(json["place"] is NSNull)
        #expect(Tools.h3Line("40.689167,-74.044444", resolution: 10) == "8a2a1072b59ffff")
        #expect(Tools.h3Line("91,0", resolution: 10).hasPrefix("error"))
    }
}
