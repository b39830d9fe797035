import Foundation
import HTTPServer
import Testing

@testable import Places

/// Live tests against a stub on 127.0.0.1, one at a time so the pacing measurement is not disturbed.
@Suite(.serialized) struct NominatimClientTests {
    @Test("a lookup sends exactly Grain's path, query and the User-Agent, and decodes the answer")
    func exactRequest() async throws {
        // setup
        let stub = try StubNominatim { _ in .json(StubNominatim.paris) }
        let client = NominatimClient(baseURL: stub.baseURL, minimumInterval: .zero, policy: stub.policy)

        // act
        let result = try await client.reverse(latitude: 48.8566, longitude: 2.3522)
        await stub.stop()

        // validate
        let request = try #require(stub.requests.first)
        #expect(stub.requests.count == 1)
        #expect(request.path == "/reverse")
        #expect(request.query == "format=json&lat=48.8566&lon=2.3522&addressdetails=1&zoom=14")
        #expect(request.userAgent == "grain-stories/0.1 (+https://github.com/grain-stories)")
        #expect(result?.name == "Hôtel de Ville")
        #expect(result?.displayName?.hasPrefix("Hôtel de Ville, Place de l'Hôtel de Ville") == true)
        #expect(
            result?.address
                == NominatimResult.Address(
                    houseNumber: "4", road: "Place de l'Hôtel de Ville", city: "Paris", state: "Île-de-France",
                    postcode: "75004", country: "France", countryCode: "fr"))
    }

    @Test("the base URL's path is kept, a custom User-Agent is sent, and coordinates are rounded to 5 decimals")
    func prefixAndRounding() async throws {
        let stub = try StubNominatim(prefix: "/nominatim") { _ in .json(StubNominatim.paris) }
        let client = NominatimClient(
            baseURL: stub.baseURL.appendingPathComponent("nominatim"), userAgent: "test-agent/1", minimumInterval: .zero,
            policy: stub.policy)

        _ = try await client.reverse(latitude: -33.868_812_34, longitude: 0.000_004)
        await stub.stop()

        let request = try #require(stub.requests.first)
        #expect(request.path == "/nominatim/reverse")
        #expect(request.query == "format=json&lat=-33.86881&lon=0&addressdetails=1&zoom=14")
        #expect(request.userAgent == "test-agent/1")
    }

    @Test("two concurrent lookups of distinct points reach the server at least the interval apart")
    func pacingAcrossCallers() async throws {
        let stub = try StubNominatim { _ in .json(StubNominatim.paris) }
        let client = NominatimClient(baseURL: stub.baseURL, minimumInterval: .milliseconds(200), policy: stub.policy)

        async let first = client.reverse(latitude: 10, longitude: 10)
        async let second = client.reverse(latitude: 20, longitude: 20)
        _ = try await (first, second)
        await stub.stop()

        let arrivals = stub.requests.map(\.arrival).sorted()
        try #require(arrivals.count == 2)
        // Starts are spaced by exactly 200 ms on the client, but the first request also opens a connection, which on
        // a busy machine has taken 40 ms longer than the second's delivery. Unpaced, the two arrive together; the
        // exact spacing is checked without a network by NominatimPacingTests.
        #expect(arrivals[1] - arrivals[0] >= .milliseconds(100))
    }

    @Test("a repeated lookup, also one within the rounding, is answered from the cache without a request")
    func cacheHit() async throws {
        let stub = try StubNominatim { _ in .json(StubNominatim.paris) }
        let client = NominatimClient(baseURL: stub.baseURL, minimumInterval: .zero, policy: stub.policy)

        let first = try await client.reverse(latitude: 48.8566, longitude: 2.3522)
        let second = try await client.reverse(latitude: 48.8566, longitude: 2.3522)
        let third = try await client.reverse(latitude: 48.856_601, longitude: 2.352_199)
        await stub.stop()

        #expect(stub.requests.count == 1)
        #expect(first != nil)
        #expect(second == first)
        #expect(third == first)
    }

    @Test("'Unable to geocode' is no result, not an error, and is cached too")
    func unableToGeocode() async throws {
        let stub = try StubNominatim { _ in .json(StubNominatim.unableToGeocode) }
        let client = NominatimClient(baseURL: stub.baseURL, minimumInterval: .zero, policy: stub.policy)

        let first = try await client.reverse(latitude: 0, longitude: -150)
        let second = try await client.reverse(latitude: 0, longitude: -150)
        await stub.stop()

        #expect(first == nil)
        #expect(second == nil)
        #expect(stub.requests.count == 1)
    }

    @Test("a 500 answer throws a status error that is not cached and carries no coordinates")
    func serverError() async throws {
        let stub = try StubNominatim { _ in .text("boom", status: .internalServerError) }
        let client = NominatimClient(baseURL: stub.baseURL, minimumInterval: .zero, policy: stub.policy)

        let error = await #expect(throws: NominatimError.self) {
            try await client.reverse(latitude: 51.5074, longitude: -0.1278)
        }
        _ = try? await client.reverse(latitude: 51.5074, longitude: -0.1278)
        await stub.stop()

        #expect(error?.kind == .status(500))
        #expect(error?.description == "Nominatim answered HTTP 500")
        #expect(stub.requests.count == 2)
    }

    @Test("a body that is not a JSON reverse result throws a malformed-response error")
    func garbage() async throws {
        let stub = try StubNominatim { _ in .text("<html>not json</html>") }
        let client = NominatimClient(baseURL: stub.baseURL, minimumInterval: .zero, policy: stub.policy)

        let error = await #expect(throws: NominatimError.self) {
            try await client.reverse(latitude: 1, longitude: 1)
        }
        await stub.stop()

        #expect(error?.kind == .malformedResponse)
    }

    @Test("a server slower than the timeout throws a timeout error whose message has no URL")
    func timeout() async throws {
        let stub = try StubNominatim { _ in
            try await Task.sleep(for: .seconds(5))
            return .json(StubNominatim.paris)
        }
        let client = NominatimClient(baseURL: stub.baseURL, minimumInterval: .zero, timeout: 0.4, policy: stub.policy)

        let started = ContinuousClock.now
        let error = await #expect(throws: NominatimError.self) {
            try await client.reverse(latitude: 12.3456, longitude: 65.4321)
        }
        let waited = ContinuousClock.now - started
        await stub.stop()

        #expect(error?.kind == .timeout)
        #expect(error?.description.contains("12.3456") == false)
        // The timeout is honoured to the millisecond (Foundation's URLSession used to round it to whole seconds).
        #expect(waited >= .milliseconds(350))
        #expect(waited < .milliseconds(1500))
    }

    @Test("a redirect is refused: it surfaces as a status error and the target never sees the coordinates")
    func redirectRefused() async throws {
        let stub = try StubNominatim { request in
            .redirect(to: "/elsewhere?\(request.query)", status: .found)
        }
        let client = NominatimClient(baseURL: stub.baseURL, minimumInterval: .zero, policy: stub.policy)

        let error = await #expect(throws: NominatimError.self) {
            try await client.reverse(latitude: 1, longitude: 2)
        }
        await stub.stop()

        #expect(error?.kind == .status(302))
        #expect(stub.requests.map(\.path) == ["/reverse"])
    }

    @Test("out-of-range or non-finite coordinates are refused without a request")
    func invalidCoordinates() async throws {
        let stub = try StubNominatim { _ in .json(StubNominatim.paris) }
        let client = NominatimClient(baseURL: stub.baseURL, minimumInterval: .zero, policy: stub.policy)

        for (latitude, longitude) in [(91.0, 0.0), (0.0, -180.5), (Double.nan, 0.0)] {
            let error = await #expect(throws: NominatimError.self) {
                try await client.reverse(latitude: latitude, longitude: longitude)
            }
            #expect(error?.kind == .invalidCoordinates)
        }
        await stub.stop()

        #expect(stub.requests.isEmpty)
    }

    @Test("the default policy refuses a Nominatim on a loopback address: coordinates never reach it")
    func loopbackRefusedByDefault() async throws {
        let stub = try StubNominatim { _ in .json(StubNominatim.paris) }
        let client = NominatimClient(baseURL: stub.baseURL, minimumInterval: .zero)

        let error = await #expect(throws: NominatimError.self) {
            try await client.reverse(latitude: 48.8566, longitude: 2.3522)
        }
        await stub.stop()

        #expect(error?.kind == .transport)
        #expect(error?.description == "Nominatim request refused: the server is at a loopback address")
        #expect(stub.requests.isEmpty)
    }
}
