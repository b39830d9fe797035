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
/// Grain's location search does, and falls back to the offline table when Nominatim fails.
@Suite(.serialized)
struct NominatimPlaceSearchTests {
    /// A Nominatim on 127.0.0.1 that answers `/search` with Paris, France, or 500 when told to fail.
    final class Stub: Sendable {
        /// Shared with the route handler, which must not capture the stub itself.
        final class State: Sendable {
            let queries = Mutex<[String]>([])
            let failing = Mutex(false)
        }

        let server: HTTPServer
        let state = State()
        var url: URL { URL(string: "http://127.0.0.1:\(server.port)")! }

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
}
