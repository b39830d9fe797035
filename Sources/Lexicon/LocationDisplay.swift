import Foundation

/// The short place label Grain shows under a story: the first comma-chunk of the name, then
/// locality, region and the ISO country, without case-insensitive adjacent repeats, and without the
/// country when it merely repeats the main label.
public enum LocationDisplay {
    public static func format(location: HThreeLocation?, address: Address?) -> String? {
        let name = location?.name?.trimmingCharacters(in: .whitespaces)
        guard let address else { return (name?.isEmpty ?? true) ? nil : name }
        let primary = name.flatMap { $0.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) } }
        var parts: [String] = []
        for candidate in [primary, address.locality, address.region] {
            guard let c = candidate?.trimmingCharacters(in: .whitespaces), !c.isEmpty else { continue }
            if let last = parts.last, last.lowercased() == c.lowercased() { continue }
            parts.append(c)
        }
        let country = address.country.trimmingCharacters(in: .whitespaces)
        if !country.isEmpty, parts.first?.lowercased() != country.lowercased(),
            parts.last?.lowercased() != country.lowercased()
        {
            parts.append(country)
        }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
