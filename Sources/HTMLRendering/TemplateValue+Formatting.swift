import Foundation

extension TemplateValue {
    /// Formats a double for display: at most six decimals, no trailing zeros, no locale, no exponent below 1e15.
    static func format(_ value: Double) -> String {
        guard value.isFinite else {
            return value.isNaN ? "NaN" : (value < 0 ? "-Infinity" : "Infinity")
        }
        let magnitude = value.magnitude
        // Below 1e12 the scaled value fits an Int64 exactly enough for six decimals; above it a double has too
        // few fractional digits to matter, so the slower C formatter is fine.
        guard magnitude < 1e12 else {
            return trimmingFraction(String(format: "%.6f", value))
        }
        let units = Int64((magnitude * 1_000_000).rounded())
        let whole = units / 1_000_000
        let fraction = units % 1_000_000
        var result = value < 0 && units != 0 ? "-" : ""
        result += String(whole)
        if fraction != 0 {
            var digits = String(fraction)
            digits = String(repeating: "0", count: 6 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            result += "." + digits
        }
        return result
    }

    private static func trimmingFraction(_ text: String) -> String {
        guard text.contains(".") else { return text }
        var trimmed = text
        while trimmed.hasSuffix("0") { trimmed.removeLast() }
        if trimmed.hasSuffix(".") { trimmed.removeLast() }
        return trimmed
    }
}
