import Foundation
import HTTPServer
import Testing

@testable import Places

/// The forward search Grain's location search makes, against a stub on 127.0.0.1.
@Suite(.serialized) struct NominatimSearchTests {
    @Test("a search sends Grain's path and query with the text percent-encoded, and keeps only placeable results")
    func exactRequest() async throws {
        let stub = try StubNominatim { _ in .json(StubNominatim.parisSearch) }
        let client = NominatimClient(baseURL: stub.baseURL, minimumInterval: .zero, policy: stub.policy)

        let results = try await client.search("  Saint-Jean & Co+ #2=x  ", limit: 8)
        await stub.stop()

        let request = try #require(stub.requests.first)
        #expect(request.path == "/search")
        #expect(request.query == "format=json&q=Saint-Jean%20%26%20Co%2B%20%232%3Dx&limit=8&addressdetails=1")
        #expect(request.userAgent == "grain-stories/0.1 (+https://github.com/grain-stories)")
        #expect(results.map(\.placeID) == [88_066_702, 297_118_937], "the result without a position is left out")
        #expect(results.first?.latitude == 48.8588897)
        #expect(results.first?.longitude == 2.3200410)
        #expect(results.last?.address?.state == "Texas")
    }

    @Test("the same search again, in any case, is answered from the cache; blank text asks nothing")
    func cacheAndBlank() async throws {
        let stub = try StubNominatim { _ in .json(StubNominatim.parisSearch) }
        let client = NominatimClient(baseURL: stub.baseURL, minimumInterval: .zero, policy: stub.policy)

        let first = try await client.search("Paris")
        let second = try await client.search("paris ")
        let blank = try await client.search("   ")
        await stub.stop()

        #expect(first == second)
        #expect(blank.isEmpty)
        #expect(stub.requests.count == 1)
    }

    @Test("searches and reverse lookups share one pace: each request after the first waits one interval")
    func sharedPacing() async throws {
        let stub = try StubNominatim { request in
            .json(request.path == "/search" ? StubNominatim.parisSearch : StubNominatim.paris)
        }
        let manual = ManualClock()
        let client = NominatimClient(baseURL: stub.baseURL, minimumInterval: .seconds(1), clock: manual.pacing, policy: stub.policy)

        _ = try await client.reverse(latitude: 48.8566, longitude: 2.3522)
        _ = try await client.search("paris")
        _ = try await client.search("lyon")
        _ = try await client.search("paris")
        await stub.stop()

        #expect(manual.sleeps == [.seconds(1), .seconds(1)], "the cached search waits for nothing")
        #expect(stub.requests.map(\.path) == ["/reverse", "/search", "/search"])
    }

    @Test("an answer that is not a JSON array of results throws a malformed-response error, and a 503 a status error")
    func badAnswers() async throws {
        let garbage = try StubNominatim { _ in .json(StubNominatim.paris) }
        let client = NominatimClient(baseURL: garbage.baseURL, minimumInterval: .zero, policy: garbage.policy)
        let malformed = await #expect(throws: NominatimError.self) { try await client.search("paris") }
        await garbage.stop()

        let busy = try StubNominatim { _ in .text("busy", status: .serviceUnavailable) }
        let busyClient = NominatimClient(baseURL: busy.baseURL, minimumInterval: .zero, policy: busy.policy)
        let status = await #expect(throws: NominatimError.self) { try await busyClient.search("paris") }
        await busy.stop()

        #expect(malformed?.kind == .malformedResponse)
        #expect(malformed?.description == "Nominatim answer is not a JSON search result")
        #expect(status?.kind == .status(503))
        #expect(status?.description.contains("paris") == false, "the text searched for is not in the message")
    }

    @Test("the default policy refuses a Nominatim on loopback for searches too")
    func loopbackRefused() async throws {
        let stub = try StubNominatim { _ in .json(StubNominatim.parisSearch) }
        let client = NominatimClient(baseURL: stub.baseURL, minimumInterval: .zero)

        let error = await #expect(throws: NominatimError.self) { try await client.search("paris") }
        await stub.stop()

        #expect(error?.kind == .transport)
        #expect(stub.requests.isEmpty)
    }
}
