import Foundation
import HTTPServer
import Testing

@testable import Places

struct NominatimPacingTests {
    @Test("back-to-back lookups wait one interval each; after a long pause the next one does not wait")
    func sequentialPacing() async throws {
        // setup
        let stub = try StubNominatim { _ in .json(StubNominatim.paris) }
        let manual = ManualClock()
        let client = NominatimClient(baseURL: stub.baseURL, minimumInterval: .seconds(1), clock: manual.pacing, policy: stub.policy)

        // act
        _ = try await client.reverse(latitude: 1, longitude: 1)
        _ = try await client.reverse(latitude: 2, longitude: 2)
        _ = try await client.reverse(latitude: 3, longitude: 3)
        manual.advance(by: .seconds(5))
        _ = try await client.reverse(latitude: 4, longitude: 4)
        _ = try await client.reverse(latitude: 4, longitude: 4)
        await stub.stop()

        // validate
        #expect(manual.sleeps == [.seconds(1), .seconds(1)])
        #expect(stub.requests.count == 4)
    }

    @Test("the gate hands concurrent callers consecutive slots, one interval apart")
    func gateSlots() async throws {
        let manual = ManualClock()
        let gate = RequestGate(interval: .milliseconds(500), clock: manual.pacing)

        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 { group.addTask { try await gate.wait() } }
            try await group.waitForAll()
        }

        // The manual clock's sleeps advance it, so the waits are the gaps to each reserved slot.
        let sleeps = manual.sleeps
        #expect(sleeps.count == 3)
        #expect(sleeps.allSatisfy { $0 <= .milliseconds(1_500) && $0 > .zero })
    }
}

struct CoordinateKeyTests {
    @Test(
        "coordinates are written as plain decimals with at most 5 places and no exponent",
        arguments: [
            (48.8566, "48.8566"), (-0.00001, "-0.00001"), (0.000004, "0"), (-179.999_996, "-180"),
            (12.3, "12.3"), (90, "90"), (1e-5, "0.00001"),
        ])
    func decimalText(value: Double, text: String) throws {
        let key = try #require(CoordinateKey(latitude: 0, longitude: value))

        #expect(key.longitudeText == text)
    }
}
