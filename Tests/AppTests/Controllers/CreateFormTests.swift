import ATProto
import Foundation
import Geo
import HTTPServer
import Imaging
import TestSupport
import Testing

@testable import App
@testable import Publishing

/// The create form in process: the place search's results step and its JSON, the camera choice, the web app
/// manifest, and the share target that stages a photo for the form to post.
@Suite(.serialized) struct CreateFormTests {
    /// The real search table `make places-data` writes.
    static let placeNames = repositoryRoot.appendingPathComponent(".build/places/place-names.csv").path
    /// One finder for the suite, so the table is mapped once.
    static let finder = PlaceFinder(path: placeNames)
    static let did = DID.parse("did:plc:maya")!

    /// The table is mapped before the request: in a debug build that takes seconds, past the page deadline.
    func signedIn(places: Bool = true) async throws -> (FrontHarness, [(String, String)]) {
        if places { try #require(await Self.finder.table() != nil, "make places-data writes \(Self.placeNames)") }
        let front = try FrontHarness(placeSearch: places ? Self.finder : nil)
        let session = try front.signIn(did: Self.did, handle: "maya.home.test")
        return (front, [("Cookie", "gs_session=\(session); gs_csrf=\(String(repeating: "c", count: 43))")])
    }

    /// A multipart body with text fields and one file.
    static func multipart(_ fields: [(String, String)], file: (name: String, bytes: [UInt8])?) -> (String, [UInt8]) {
        let boundary = "----grain\(UUID().uuidString)"
        var body: [UInt8] = []
        for (name, value) in fields {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        if let file {
            body += Array(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.name)\"; filename=\"shared.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n"
                    .utf8)
            body += file.bytes + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return ("multipart/form-data; boundary=\(boundary)", body)
    }

    /// The start of a JPEG: enough for the format check a share goes through.
    static let jpegHead: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [UInt8](repeating: 0, count: 200)

    @Test("the results step lists the places found as radio buttons posting GeoNames ids, best first, without a script")
    func resultsStep() async throws {
        let (front, cookies) = try await signedIn()

        let page = await front.send(.get, "/create?place=reykjav%C3%ADk", headers: cookies)

        #expect(page.status == .ok)
        #expect(page.text.contains(#"<form id="place-search" method="get" action="/create""#))
        #expect(page.text.contains(#"form="place-search" value="reykjavík""#))
        let ids = captures(#"name="placeID" value="([0-9]+)""#, in: page.text)
        #expect(ids.first == "3413829", "Reykjavík's GeoNames id comes first: \(ids)")
        #expect(ids.count <= 8)
        #expect(page.text.contains("Reykjavík, Capital Region"))
        #expect(page.text.contains("Iceland, population"))
    }

    @Test("what was searched for is shown again escaped, and a search that finds nothing says so")
    func escapedQuery() async throws {
        let (front, cookies) = try await signedIn()

        let page = await front.send(.get, "/create?place=%3Cscript%3Ealert(1)%3C%2Fscript%3E%22", headers: cookies)

        #expect(page.status == .ok)
        #expect(!page.text.contains("<script>alert(1)"))
        #expect(page.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;"))
        #expect(page.text.contains("No place matches"))
        #expect(captures(#"name="placeID" value="([0-9]+)""#, in: page.text).isEmpty)
    }

    @Test("the form offers Choose photo and Take photo (the camera), and no place search on a server without the table")
    func cameraAndNoTable() async throws {
        let (front, cookies) = try await signedIn(places: false)

        let page = await front.send(.get, "/create?place=paris", headers: cookies)

        #expect(page.status == .ok)
        #expect(page.text.contains(#"<input id="camera" name="camera" type="file" accept="image/*" capture="environment">"#))
        #expect(page.text.contains(#"<label class="photo-choice photo-choice--camera" for="camera">Take photo</label>"#))
        #expect(page.text.contains(#"<label class="photo-choice" for="photo">Choose photo</label>"#))
        #expect(!page.text.contains("place-search"))
        #expect(page.text.contains(#"<link rel="manifest" href="/manifest.webmanifest">"#))
    }

    @Test("GET /api/places answers the same places as JSON for the script, to signed-in visitors only")
    func placesJSON() async throws {
        let (front, cookies) = try await signedIn()

        let answer = await front.send(.get, "/api/places?q=paris,%20texas", headers: cookies)
        let stranger = await front.send(.get, "/api/places?q=paris")

        #expect(answer.status == .ok)
        #expect(answer.headers["Content-Type"] == "application/json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any])
        let places = try #require(json["places"] as? [[String: Any]])
        #expect(json["available"] as? Bool == true)
        #expect(places.first?["id"] as? String == "4717560")
        #expect(places.first?["name"] as? String == "Paris, Texas")
        #expect((places.first?["detail"] as? String)?.hasPrefix("United States") == true)
        #expect(stranger.status == .unauthorized)
    }

    @Test("near=<H3 resolution-5 cell> ranks the places of that area first; a finer cell or garbage is ignored")
    func nearArea() async throws {
        let (front, cookies) = try await signedIn()
        let texas = try #require(H3.cell(latitude: 33.66, longitude: -95.55, resolution: 5)).description
        let fine = try #require(H3.cell(latitude: 33.66, longitude: -95.55, resolution: 10)).description

        func first(_ target: String) async throws -> String? {
            let answer = await front.send(.get, target, headers: cookies)
            let json = try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any]
            return (json?["places"] as? [[String: Any]])?.first?["id"] as? String
        }

        #expect(try await first("/api/places?q=paris&near=\(texas)") == "4717560")
        #expect(try await first("/api/places?q=paris&near=\(fine)") == "2988507", "a resolution-10 cell is not accepted")
        #expect(try await first("/api/places?q=paris&near=zzz") == "2988507")
        #expect(try await first("/api/places?q=paris") == "2988507")
    }

    @Test("a posted place id the table does not hold is refused with the form and a sentence, before any photo work")
    func unknownPlaceID() async throws {
        let (front, cookies) = try await signedIn()
        let token = String(repeating: "c", count: 43)
        let (type, body) = Self.multipart([("csrf", token), ("placeID", "999999999")], file: ("photo", Self.jpegHead))

        let answer = await front.send(
            .post, "/create", headers: cookies + [("Content-Type", type), ("Origin", "http://box.local:8080")], body: body)

        #expect(answer.status == .unprocessableContent)
        #expect(answer.text.contains("The place you chose is not in this server"))
    }

    @Test("the manifest names the app, its icons, a New story shortcut and a POST share target for photos")
    func manifest() async throws {
        let front = try FrontHarness()

        let answer = await front.send(.get, "/manifest.webmanifest")

        #expect(answer.status == .ok)
        #expect(answer.headers["Content-Type"] == "application/manifest+json")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(answer.text.utf8)) as? [String: Any])
        #expect(json["start_url"] as? String == "/")
        #expect(json["display"] as? String == "standalone")
        let shortcut = try #require((json["shortcuts"] as? [[String: Any]])?.first)
        #expect(shortcut["name"] as? String == "New story")
        #expect(shortcut["url"] as? String == "/create")
        let share = try #require(json["share_target"] as? [String: Any])
        #expect(share["action"] as? String == "/share")
        #expect(share["method"] as? String == "POST")
        #expect(share["enctype"] as? String == "multipart/form-data")
        let files = try #require(((share["params"] as? [String: Any])?["files"] as? [[String: Any]])?.first)
        #expect(files["name"] as? String == "photo")
        #expect((files["accept"] as? [String])?.contains("image/*") == true)
        let icons = try #require(json["icons"] as? [[String: Any]])
        #expect(icons.contains { $0["sizes"] as? String == "512x512" && $0["purpose"] as? String == "maskable" })
        for icon in icons {
            let src = try #require(icon["src"] as? String)
            let file = repositoryRoot.appendingPathComponent("Public").appendingPathComponent(String(src.dropFirst("/static/".count)))
            let bytes = try [UInt8](Data(contentsOf: file))
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(src) is a PNG in Public/")
        }
    }

    @Test("a share from another app, without a CSRF token, only stages the photo and answers the form to confirm it")
    func shareStages() async throws {
        let (front, cookies) = try await signedIn()
        let (type, body) = Self.multipart([], file: ("photo", Self.jpegHead))
        let uploads = front.directory.path + "/uploads"
        try FileManager.default.createDirectory(atPath: uploads, withIntermediateDirectories: true)

        let answer = await front.send(
            .post, "/share", headers: cookies + [("Content-Type", type), ("Sec-Fetch-Site", "none"), ("Origin", "null")], body: body)

        #expect(answer.status == .ok)
        #expect(answer.text.contains("Photo shared from another app: <strong>JPEG, 0.0 MB</strong>"))
        let token = try #require(captures(#"name="staged" value="([0-9a-f]{32})""#, in: answer.text).first)
        #expect(answer.text.contains(#"name="csrf" value=""#), "posting it is the normal CSRF-checked form")
        let staged = try FileManager.default.contentsOfDirectory(atPath: uploads).filter { $0.hasPrefix("shared-") }
        #expect(staged.count == 1)
        #expect(staged.first?.hasSuffix("-\(token).part") == true)
    }

    @Test("a share another site sends is refused and nothing is staged; a staged photo is only this session's")
    func shareFromAnotherSite() async throws {
        let (front, cookies) = try await signedIn()
        let (type, body) = Self.multipart([], file: ("photo", Self.jpegHead))
        let uploads = front.directory.path + "/uploads"
        try FileManager.default.createDirectory(atPath: uploads, withIntermediateDirectories: true)

        let crossSite = await front.send(
            .post, "/share", headers: cookies + [("Content-Type", type), ("Sec-Fetch-Site", "cross-site")], body: body)
        let foreignOrigin = await front.send(
            .post, "/share", headers: cookies + [("Content-Type", type), ("Origin", "http://evil.example")], body: body)
        let nullFromAPage = await front.send(
            .post, "/share", headers: cookies + [("Content-Type", type), ("Origin", "null"), ("Sec-Fetch-Site", "same-site")], body: body)
        let shared = await front.send(.post, "/share", headers: cookies + [("Content-Type", type), ("Sec-Fetch-Site", "none")], body: body)
        let token = try #require(captures(#"name="staged" value="([0-9a-f]{32})""#, in: shared.text).first)
        let other = try front.signIn(did: DID.parse("did:plc:other")!, handle: "other.home.test")
        let csrf = String(repeating: "c", count: 43)
        let (postType, post) = Self.multipart([("csrf", csrf), ("staged", token)], file: nil)
        let stolen = await front.send(
            .post, "/create",
            headers: [("Cookie", "gs_session=\(other); gs_csrf=\(csrf)"), ("Content-Type", postType), ("Origin", "http://box.local:8080")],
            body: post)

        #expect(crossSite.status == .forbidden)
        #expect(foreignOrigin.status == .forbidden)
        #expect(nullFromAPage.status == .forbidden)
        #expect(shared.status == .ok)
        #expect(stolen.status == .unprocessableContent)
        #expect(stolen.text.contains("no longer waiting here"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: uploads).filter { $0.hasPrefix("shared-") }.count == 1)
    }

    @Test("a story server too slow to take the photo gets the form back with 503 and Retry-After, and no record is made")
    func slowStoryServer() async throws {
        let stub = try StubHatk()
        stub.slow("dev.hatk.uploadBlob", by: .seconds(4))
        let front = try FrontHarness(writer: stub.url, writerTimeout: 2)
        let session = try front.signIn(did: Self.did, handle: "maya.home.test")
        let csrf = String(repeating: "c", count: 43)
        let photo = try Imaging.encodeJPEG(RGBImage(width: 64, height: 48, pixels: [UInt8](repeating: 120, count: 64 * 48 * 3)), quality: 90)
        let (type, body) = Self.multipart([("csrf", csrf), ("location", "Kitchen")], file: ("photo", photo))

        let answer = await front.send(
            .post, "/create",
            headers: [("Cookie", "gs_session=\(session); gs_csrf=\(csrf)"), ("Content-Type", type), ("Origin", "http://box.local:8080")],
            body: body)

        #expect(answer.status == .serviceUnavailable)
        #expect(answer.headers["Retry-After"] == "5")
        #expect(answer.text.contains("took too long to take your photo, so nothing was posted"))
        #expect(stub.calls("dev.hatk.createRecord").isEmpty)
        await stub.stop()
    }
}
