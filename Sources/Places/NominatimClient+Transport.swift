import Foundation
import Outbound

extension NominatimClient {
    /// Sends `request` and returns the body of its 200 answer, turning every failure into a `NominatimError` whose
    /// message carries no URL (and with it no coordinates or search text). Redirects are not followed: they arrive
    /// as a 3xx status.
    func fetch(_ request: OutboundRequest) async throws -> Data {
        let response: OutboundResponse
        do {
            response = try await http.send(request)
        } catch {
            switch error.kind {
            case .timeout:
                throw NominatimError(.timeout, "Nominatim did not answer in time")
            case .cancelled:
                throw CancellationError()
            case .bodyTooLarge:
                throw NominatimError(.malformedResponse, "Nominatim answer exceeds \(Self.maximumBodySize) bytes")
            case .refused(_, let category):
                throw NominatimError(.transport, "Nominatim request refused: the server is at \(category)")
            default:
                throw NominatimError(.transport, "Nominatim request failed (\(error.kind))")
            }
        }
        guard response.status == 200 else {
            throw NominatimError(.status(response.status), "Nominatim answered HTTP \(response.status)")
        }
        return response.body
    }

    /// Decodes a reverse answer; Nominatim reports "no place here" as `200 {"error": "Unable to geocode"}`.
    static func decode(_ data: Data) throws(NominatimError) -> NominatimResult? {
        struct Envelope: Decodable {
            var error: String?
        }
        let decoder = JSONDecoder()
        do {
            if try decoder.decode(Envelope.self, from: data).error != nil { return nil }
            return try decoder.decode(NominatimResult.self, from: data)
        } catch {
            throw NominatimError(.malformedResponse, "Nominatim answer is not a JSON reverse result")
        }
    }

    /// Decodes a search answer, a JSON array; results without an id or a position are left out (they could be
    /// neither chosen nor placed in a cell).
    static func decodeSearch(_ data: Data) throws(NominatimError) -> [NominatimResult] {
        do {
            return try JSONDecoder().decode([NominatimResult].self, from: data).filter {
                $0.placeID != nil && $0.latitude != nil && $0.longitude != nil
            }
        } catch {
            throw NominatimError(.malformedResponse, "Nominatim answer is not a JSON search result")
        }
    }
}

/// Coordinates rounded to 5 decimals (about 1.1 m at the equator): the cache key and the values sent. Integers
/// keep the key exact and let the query text be written without floating-point formatting surprises.
struct CoordinateKey: Hashable, Sendable {
    let latitude: Int64
    let longitude: Int64

    init?(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite, (-90.0...90.0).contains(latitude),
            (-180.0...180.0).contains(longitude)
        else { return nil }
        self.latitude = Int64((latitude * 100_000).rounded())
        self.longitude = Int64((longitude * 100_000).rounded())
    }

    var latitudeText: String { Self.decimal(latitude) }
    var longitudeText: String { Self.decimal(longitude) }

    /// `4885660` as `48.8566`, `-5` as `-0.00005`, `0` as `0`: plain decimal, never an exponent.
    static func decimal(_ scaled: Int64) -> String {
        let magnitude = scaled.magnitude
        let whole = magnitude / 100_000
        var fraction = String(magnitude % 100_000)
        fraction = String(repeating: "0", count: 5 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let sign = scaled < 0 ? "-" : ""
        return fraction.isEmpty ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }
}
