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

/// The create form's place search and the share target on a real server: the chosen place ends up in the record
/// as Grain writes a GPS place, and a shared photo is posted only by the confirming form.
@Suite(.serialized)
struct PlaceAndShareTests {
    static let placeNames = repositoryRoot.appendingPathComponent(".build/places/place-names.csv").path

    func live() async throws -> (LiveApp, Browser) {
        let live = try await LiveApp(demo: true) { $0.placeNamesCSV = Self.placeNames }
        let browser = Browser(base: live.base)
        _ = try await SignInAndPostTests().signIn(browser, handle: "maya.home.test", password: "maya-stories")
        // The form starts mapping the table; in a debug build that can outlast the page deadline, so wait for it.
        _ = try await browser.get("/create")
        for _ in 0..<60 where try await browser.get("/api/places?q=paris").status != 200 {
            try await Task.sleep(for: .seconds(1))
        }
        return (live, browser)
    }

    func csrf(_ page: Browser.Page) throws -> String {
        try #require(captures(#"name="csrf" value="([^"]+)""#, in: page.body).first)
    }

    @Test("a photo without GPS posted with a place from the search gets that place's cell, name and area")
    func chosenPlace() async throws {
        let (live, browser) = try await live()
        defer { Task { await live.stop() } }
        let photo = try [UInt8](Data(contentsOf: URL(fileURLWithPath: demoPhotos + "/rocket.jpg")))
        #expect(Exif.read(photo).gps == nil)

        let results = try await browser.get("/create?place=reykjavik")
        let id = try #require(captures(#"name="placeID" value="([0-9]+)""#, in: results.body).first)
        let posted = try await browser.postMultipart(
            "/create", fields: [("csrf", try csrf(results)), ("useLocation", "on"), ("location", ""), ("placeID", id)],
            file: ("photo", "rocket.jpg", "image/jpeg", photo))

        #expect(id == "3413829")
        #expect(posted.status == 303)
        let record = try UploadPipelineTests().latestStory(live, handle: "maya.home.test")
        #expect(record.location?.value == H3.cell(latitude: 64.13548, longitude: -21.89541, resolution: 10)?.description)
        #expect(record.location?.name == "Reykjavík, Capital Region")
        #expect(record.address == Address(country: "IS", region: "Capital Region", locality: "Reykjavík"))
    }

    @Test("the form's early look at a geotagged photo answers its place and only its resolution-5 area, no coordinates")
    func inspectAnswersTheArea() async throws {
        let (live, browser) = try await live()
        defer { Task { await live.stop() } }
        let photo = try ExifJPEG.make(width: 1200, height: 900, orientation: 1, latitude: 33.66094, longitude: -95.55551)
        let form = try await browser.get("/create")

        let answer = try await browser.postMultipart(
            "/api/inspect", fields: [("csrf", try csrf(form))], file: ("photo", "head", "application/octet-stream", Array(photo.prefix(64 * 1024))))

        #expect(answer.status == 200)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any])
        #expect(json["located"] as? Bool == true)
        #expect(json["area"] as? String == H3.cell(latitude: 33.66094, longitude: -95.55551, resolution: 5)?.description)
        #expect(!answer.body.contains("33.66") && !answer.body.contains("95.55"), "no coordinate in \(answer.body)")
    }

    @Test("a photo shared from another app is staged, then posted by the form's confirm; the camera field posts too")
    func shareThenConfirm() async throws {
        let (live, browser) = try await live()
        defer { Task { await live.stop() } }
        let photo = try [UInt8](Data(contentsOf: URL(fileURLWithPath: demoPhotos + "/rocket.jpg")))
        let uploads = live.dataDirectory + "/uploads"
        let before = try live.app.backend?.store.records.records(
            of: try #require(try live.app.backend?.store.accounts.account("maya.home.test")).did.rawValue, collection: StoryRecord.collection
        ).count

        // No CSRF field: a share from another app cannot carry one. The browser marks it as its own navigation.
        let shared = try await browser.postMultipart(
            "/share", fields: [], file: ("photo", "rocket.jpg", "image/jpeg", photo), headers: ["Sec-Fetch-Site": "none"])
        let token = try #require(captures(#"name="staged" value="([0-9a-f]{32})""#, in: shared.body).first)
        let stagedFiles = try FileManager.default.contentsOfDirectory(atPath: uploads).filter { $0.hasPrefix("shared-") }
        let confirmed = try await browser.postMultipart(
            "/create", fields: [("csrf", try csrf(shared)), ("staged", token), ("useLocation", "on")],
            file: ("photo", "", "application/octet-stream", []))
        let taken = try await browser.postMultipart(
            "/create", fields: [("csrf", try csrf(shared)), ("useLocation", "on")], file: ("camera", "camera.jpg", "image/jpeg", photo))

        #expect(shared.status == 200)
        #expect(shared.body.contains("Photo shared from another app"))
        #expect(stagedFiles.count == 1)
        #expect(confirmed.status == 303)
        #expect(taken.status == 303)
        #expect(try FileManager.default.contentsOfDirectory(atPath: uploads).filter { $0.hasPrefix("shared-") }.isEmpty)
        let did = try #require(try live.app.backend?.store.accounts.account("maya.home.test")).did.rawValue
        let after = try live.app.backend?.store.records.records(of: did, collection: StoryRecord.collection).count
        #expect(after == (before ?? 0) + 2, "the share itself posted nothing; the confirm and the camera post did")
    }
}
