import ATProto
import Backend
import Foundation
import Geo
import HTTPServer
import Lexicon
import Outbound
import Synchronization
import TestSupport
import Testing

@testable import Server

/// `--geocoder nominatim` on a real server: the create form's place search goes to Nominatim by name only, as
/// Grain's location search does, and falls back to the offline table when Nominatim fails; a photo's position is
/// named by Nominatim at posting time, and only the area it names is published.
@Suite(.serialized)
struct NominatimPlaceSearchTests {
    /// A Nominatim on 127.0.0.1 that answers `/search` with Paris, France, or 500 when told to fail, and `/reverse`
    /// with a house in Porto, as the public server answers at building level: house number, road and postcode.
    final class Stub: Sendable {
        /// Shared with the route handler, which must not capture the stub itself.
        final class State: Sendable {
            let queries = Mutex<[String]>([])
            let reverses = Mutex<[String]>([])
            let failing = Mutex(false)
        }

        let server: HTTPServer
        let state = State()
        var url: URL { URL(string: "http://127.0.0.1:\(server.port)")! }

        /// Words of the house's address that must never be published.
        static let houseWords = ["Rua de Santa Catarina", "Santa Catarina", "4000-447", "Bonfim", "house_number", "postalCode", "street"]
        static let house = """
            {"place_id":236871923,"lat":"41.1484516","lon":"-8.6062431","name":"",
            "display_name":"312, Rua de Santa Catarina, Bonfim, Porto, Área Metropolitana do Porto, Norte, 4000-447, Portugal",
            "address":{"house_number":"312","road":"Rua de Santa Catarina","suburb":"Bonfim","city":"Porto",
            "state":"Norte","postcode":"4000-447","country":"Portugal","country_code":"pt"}}
            """

        init() throws {
            var router = Router()
            let state = state
            router.on(.get, "/search") { request in
                state.queries.withLock { $0.append(request.query) }
                if state.failing.withLock({ $0 }) { return .text("down", status: .internalServerError) }
                return .json(
                    Array(
                        """
                        [{"place_id":88066702,"lat":"48.8588897","lon":"2.3200410","name":"Paris",
                        "display_name":"Paris, Île-de-France, France métropolitaine, France",
                        "address":{"city":"Paris","state":"Île-de-France","country":"France","country_code":"fr"}}]
                        """.utf8))
            }
            router.on(.get, "/reverse") { request in
                state.reverses.withLock { $0.append(request.query) }
                return .json(Array(Stub.house.utf8))
            }
            var configuration = ServerConfiguration()
            configuration.port = 0
            configuration.threadCount = 2
            configuration.shutdownGracePeriod = .milliseconds(100)
            server = HTTPServer(configuration: configuration, router: router)
            try server.start()
        }
    }

    @Test("the form searches Nominatim by name only and on request, and the chosen result is posted with Grain's mapping")
    func searchAndPost() async throws {
        let stub = try Stub()
        let live = try await LiveApp(demo: true) { configuration in
            configuration.placeNamesCSV = PlaceAndShareTests.placeNames
            configuration.geocoder = .nominatim
            configuration.nominatimURL = stub.url
            configuration.nominatimPolicy = AddressPolicy.publicOnly.allowing([stub.url])
        }
        let browser = Browser(base: live.base)
        _ = try await SignInAndPostTests().signIn(browser, handle: "maya.home.test", password: "maya-stories")
        let photo = try [UInt8](Data(contentsOf: URL(fileURLWithPath: demoPhotos + "/rocket.jpg")))

        let results = try await browser.get("/create?place=paris")
        let token = try #require(captures(#"name="placeID" value="(n[0-9]+)""#, in: results.body).first)
        let csrf = try #require(captures(#"name="csrf" value="([^"]+)""#, in: results.body).first)
        let stale = try await browser.postMultipart(
            "/create", fields: [("csrf", csrf), ("useLocation", "on"), ("placeID", "n42")],
            file: ("photo", "rocket.jpg", "image/jpeg", photo))
        let posted = try await browser.postMultipart(
            "/create", fields: [("csrf", csrf), ("useLocation", "on"), ("location", ""), ("placeID", token)],
            file: ("photo", "rocket.jpg", "image/jpeg", photo))
        let record = try UploadPipelineTests().latestStory(live, handle: "maya.home.test")
        stub.state.failing.withLock { $0 = true }
        // The offline table is mapped at the first form; in a debug build that can outlast the page deadline.
        var fallback = try await browser.get("/create?place=reykjavik")
        for _ in 0..<60 where fallback.status != 200 {
            try await Task.sleep(for: .seconds(1))
            fallback = try await browser.get("/create?place=reykjavik")
        }
        await live.stop()
        await stub.server.shutdown()

        #expect(token == "n88066702")
        #expect(results.body.contains("France métropolitaine"), "the result's full address tells places apart")
        #expect(results.body.contains(#"data-as-you-type="false""#), "Nominatim's policy: no search on every keystroke")
        #expect(stale.status == 422, "a place the server never offered is refused, and nothing is posted")
        #expect(stale.body.contains("Search for it again"))
        #expect(posted.status == 303)
        #expect(record.location?.name == "Paris")
        #expect(record.location?.value == H3.cell(latitude: 48.8588897, longitude: 2.3200410, resolution: 10)?.description)
        #expect(record.address == Address(country: "FR", region: "Île-de-France", locality: "Paris"))
        let queries = stub.state.queries.withLock { $0 }
        #expect(queries.first == "format=json&q=paris&limit=8&addressdetails=1")
        #expect(queries.allSatisfy { !$0.contains("lat=") && !$0.contains("viewbox") }, "no position is sent: \(queries)")
        #expect(
            captures(#"name="placeID" value="([0-9]+)""#, in: fallback.body).first == "3413829",
            "the offline table answers (\(fallback.status))")
    }

    @Test(
        "a photo geocoded by Nominatim publishes its area only (no house number, road or postcode), a typed name drops the area and sends nothing, and the form's early look never asks Nominatim"
    )
    func reverseGeocodedAreaOnly() async throws {
        // setup: a Nominatim on loopback answering at building level, and a member signed in
        let stub = try Stub()
        let live = try await LiveApp(demo: true) { configuration in
            configuration.geocoder = .nominatim
            configuration.nominatimURL = stub.url
            configuration.nominatimPolicy = AddressPolicy.publicOnly.allowing([stub.url])
        }
        let browser = Browser(base: live.base)
        _ = try await SignInAndPostTests().signIn(browser, handle: "maya.home.test", password: "maya-stories")
        let photo = try ExifJPEG.make(width: 800, height: 600, orientation: 1, latitude: 41.14845, longitude: -8.60624)
        let form = try await browser.get("/create")
        let csrf = try #require(captures(#"name="csrf" value="([^"]+)""#, in: form.body).first)

        // act: the form's early look at the picked file, then the post that asks for the photo's place
        let inspected = try await browser.postMultipart(
            "/api/inspect", fields: [("csrf", csrf)], file: ("photo", "head", "application/octet-stream", Array(photo.prefix(64 * 1024))))
        let reversesAfterInspect = stub.state.reverses.withLock { $0 }
        let posted = try await browser.postMultipart(
            "/create", fields: [("csrf", csrf), ("useLocation", "on"), ("location", "")], file: ("photo", "porto.jpg", "image/jpeg", photo))
        let backend = try #require(live.app.backend)
        let did = try #require(try backend.store.accounts.account("maya.home.test")).did.rawValue
        let stored = try #require(try backend.store.records.records(of: did, collection: StoryRecord.collection).first)
        let record = try stored.value.decode(as: StoryRecord.self)
        let storedJSON = String(decoding: try JSONEncoder().encode(stored.value), as: UTF8.self)
        let stories = try await live.get("/xrpc/social.grain.unspecced.getStories?actor=\(did)")
        let uri = stored.uri.description
        let fetched = try await live.get(
            "/xrpc/dev.hatk.getRecord?uri=" + (uri.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? uri))
        let reversesAfterPost = stub.state.reverses.withLock { $0 }
        // a place name typed by the person: no area beside it, and no reason to send the position anywhere
        live.clock.advance(seconds: 60)
        let typed = try await browser.postMultipart(
            "/create", fields: [("csrf", csrf), ("useLocation", "on"), ("location", "Grandma's")],
            file: ("photo", "porto.jpg", "image/jpeg", try ExifJPEG.make(width: 800, height: 600, orientation: 1, latitude: 41.15, longitude: -8.61)))
        let named = try #require(try backend.store.records.records(of: did, collection: StoryRecord.collection).first).value.decode(
            as: StoryRecord.self)
        let reversesAfterTyped = stub.state.reverses.withLock { $0 }
        await live.stop()
        await stub.server.shutdown()

        // validate: the early look used the offline table only
        #expect(inspected.status == 200)
        #expect(inspected.body.contains(#""located":true"#), "\(inspected.body)")
        #expect(reversesAfterInspect.isEmpty, "picking a file sent its position to Nominatim: \(reversesAfterInspect)")
        // the post asked Nominatim once, for an area rather than a house
        #expect(posted.status == 303)
        #expect(reversesAfterPost.count == 1)
        #expect(reversesAfterPost.first?.contains("zoom=14") == true, "\(reversesAfterPost)")
        // the record, as stored and as served, holds country, region and locality only
        #expect(record.address == Address(country: "PT", region: "Norte", locality: "Porto"))
        #expect(record.location?.name == "Porto, Norte, Portugal")
        #expect(record.location?.value == H3.cell(latitude: 41.14845, longitude: -8.60624, resolution: 10)?.description)
        #expect(stories.status == 200 && fetched.status == 200, "getStories \(stories.status), getRecord \(fetched.status)")
        #expect(stories.body.contains("Norte") && fetched.body.contains("Norte"), "the area is served")
        for (what, text) in [("the stored record", storedJSON), ("getStories", stories.body), ("getRecord", fetched.body)] {
            for word in Stub.houseWords {
                #expect(!text.contains(word), "\(what) carries \(word): \(text)")
            }
            #expect(!text.contains(#""312""#), "\(what) carries the house number")
        }
        // a typed name stands alone, and Nominatim was not asked
        #expect(typed.status == 303)
        #expect(named.location?.name == "Grandma's")
        #expect(named.address == nil)
        #expect(reversesAfterTyped.count == 1, "a typed place name needs no lookup: \(reversesAfterTyped)")
    }
}
