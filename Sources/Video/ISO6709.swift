import Foundation

/// A point written as ISO 6709 (Annex H), the way cameras store where a clip was taken: `+48.8584+002.2945+035.000/`.
///
/// Phones write decimal degrees; the older degrees-and-minutes (`+4851.50+00217.77/`) and
/// degrees-minutes-seconds forms are read too, told apart by how many digits come before the decimal point.
enum ISO6709 {
    /// Latitude and longitude in decimal degrees, nil when the text is not an ISO 6709 point or is out of range.
    static func parse(_ text: String) -> (latitude: Double, longitude: Double)? {
        let fields = signedFields(text.trimmingCharacters(in: .whitespaces))
        guard fields.count >= 2,
            let latitude = degrees(fields[0], degreeDigits: 2), abs(latitude) <= 90,
            let longitude = degrees(fields[1], degreeDigits: 3), abs(longitude) <= 180
        else { return nil }
        return (latitude, longitude)
    }

    /// The text split before each sign, up to the `/` or a coordinate reference system (`CRS...`) that ends it.
    private static func signedFields(_ text: String) -> [Substring] {
        let body = text.prefix { $0 != "/" && $0 != "C" }
        var fields: [Substring] = []
        var start = body.startIndex
        for index in body.indices where index != body.startIndex && (body[index] == "+" || body[index] == "-") {
            fields.append(body[start..<index])
            start = index
        }
        if start < body.endIndex { fields.append(body[start...]) }
        return fields
    }

    /// One signed coordinate; `degreeDigits` is 2 for latitude, 3 for longitude.
    private static func degrees(_ field: Substring, degreeDigits: Int) -> Double? {
        guard let sign = field.first, sign == "+" || sign == "-" else { return nil }
        let number = field.dropFirst()
        let integer = number.prefix { $0 != "." }
        let fraction = number.dropFirst(integer.count)
        guard !integer.isEmpty, integer.allSatisfy(\.isASCIIDigit),
            fraction.isEmpty || (fraction.count > 1 && fraction.dropFirst().allSatisfy(\.isASCIIDigit)),
            let whole = Double(number)
        else { return nil }
        let magnitude: Double
        switch integer.count {
        case degreeDigits:
            magnitude = whole
        case degreeDigits + 2:
            let minutes = whole.truncatingRemainder(dividingBy: 100)
            guard minutes < 60 else { return nil }
            magnitude = (whole - minutes) / 100 + minutes / 60
        case degreeDigits + 4:
            let seconds = whole.truncatingRemainder(dividingBy: 100)
            let minutes = ((whole - seconds) / 100).truncatingRemainder(dividingBy: 100)
            guard seconds < 60, minutes < 60 else { return nil }
            magnitude = (whole - seconds - minutes * 100) / 10_000 + minutes / 60 + seconds / 3600
        default:
            return nil
        }
        return sign == "-" ? -magnitude : magnitude
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
