import Clocks
import Foundation
import HTTPServer
import Outbound
import Places
import Synchronization

/// A fake Nominatim on 127.0.0.1 (port 0) that records what it is asked and answers with `respond`.
final class StubNominatim: Sendable {
    struct Recorded: Sendable {
        var path: String
        var query: String
        var userAgent: String?
        var arrival: ContinuousClock.Instant
    }

    /// Shared with the route handlers, which outlive no one but must not capture the stub itself.
    final class Log: Sendable {
        let entries = Mutex<[Recorded]>([])
    }

    private let server: HTTPServer
    private let log = Log()

    var requests: [Recorded] { log.entries.withLock { $0 } }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(server.port)")! }
    /// The production policy plus this stub's origin: a real deployment never allows a loopback Nominatim.
    var policy: AddressPolicy { AddressPolicy.publicOnly.allowing([baseURL]) }

    /// - Parameters:
    ///   - prefix: A path under which `/reverse` is served, to check that the base URL's path is kept.
    ///   - respond: The answer to each `/reverse` and `/search` request.
    init(prefix: String = "", respond: @escaping @Sendable (Request) async throws -> Response) throws {
        let log = log
        var router = Router()
        let record: @Sendable (Request) -> Void = { request in
            let entry = Recorded(
                path: request.path, query: request.query, userAgent: request.headers["User-Agent"],
                arrival: .now)
            log.entries.withLock { $0.append(entry) }
        }
        router.on(.get, "\(prefix)/reverse") { request in
            record(request)
            return try await respond(request)
        }
        router.on(.get, "\(prefix)/search") { request in
            record(request)
            return try await respond(request)
        }
        router.on(.get, "/elsewhere") { request in
            record(request)
            return .json(Self.paris)
        }
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threadCount = 2
        configuration.connectionTimeout = 10
        configuration.shutdownGracePeriod = .milliseconds(100)
        server = HTTPServer(configuration: configuration, router: router)
        try server.start()
    }

    func stop() async {
        await server.shutdown()
    }

    /// A trimmed real answer for 48.8566, 2.3522.
    static let paris = Array(
        """
        {"place_id":88066702,"licence":"Data © OpenStreetMap contributors, ODbL 1.0.","osm_type":"way",
        "lat":"48.8565","lon":"2.3521","name":"Hôtel de Ville","display_name":"Hôtel de Ville, Place de l'Hôtel de \
        Ville, Paris 4e Arrondissement, Paris, Île-de-France, 75004, France",
        "address":{"amenity":"Hôtel de Ville","house_number":"4","road":"Place de l'Hôtel de Ville",
        "city":"Paris","state":"Île-de-France","postcode":"75004","country":"France","country_code":"fr"}}
        """.utf8)

    /// A trimmed real answer to `/search?q=paris&limit=8`, plus one result without a position (left out).
    static let parisSearch = Array(
        """
        [{"place_id":88066702,"licence":"Data © OpenStreetMap contributors, ODbL 1.0.","osm_type":"relation",
        "lat":"48.8588897","lon":"2.3200410","name":"Paris","display_name":"Paris, Île-de-France, France métropolitaine, France",
        "address":{"city":"Paris","ISO3166-2-lvl6":"FR-75","state":"Île-de-France","country":"France","country_code":"fr"}},
        {"place_id":1234,"name":"Paris","display_name":"Paris, Lamar County, Texas, United States",
        "address":{"city":"Paris","state":"Texas","country":"United States","country_code":"us"}},
        {"place_id":297118937,"lat":"33.6617962","lon":"-95.555513","name":"Paris",
        "display_name":"Paris, Lamar County, Texas, 75460, United States",
        "address":{"city":"Paris","county":"Lamar County","state":"Texas","postcode":"75460","country":"United States","country_code":"us"}}]
        """.utf8)

    static let unableToGeocode = Array(#"{"error":"Unable to geocode"}"#.utf8)
}

/// A pacing clock that never really sleeps: `sleep` advances `now` and records how long it was asked to wait.
final class ManualClock: Sendable {
    private let state = Mutex<(now: Duration, sleeps: [Duration])>((.zero, []))

    var sleeps: [Duration] { state.withLock { $0.sleeps } }

    func advance(by duration: Duration) {
        state.withLock { $0.now += duration }
    }

    var pacing: MonotonicClock {
        MonotonicClock(
            now: { self.state.withLock { $0.now } },
            sleep: { duration in
                self.state.withLock {
                    $0.sleeps.append(duration)
                    $0.now += duration
                }
            })
    }
}
