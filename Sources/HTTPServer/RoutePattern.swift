/// A parsed route pattern such as `/profile/:actor/story/:rkey` or `/static/*path`.
struct RoutePattern: Sendable, CustomStringConvertible {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        case rest(String)
    }

    let segments: [Segment]
    /// The pattern as registered.
    let description: String

    /// How specific a match is at each segment; literals beat parameters, which beat a rest match.
    var specificity: [Int] {
        segments.map {
            switch $0 {
            case .literal: 2
            case .parameter: 1
            case .rest: 0
            }
        }
    }

    init(_ pattern: String) {
        description = pattern
        let parts = Self.split(pattern)
        segments = parts.enumerated().map { index, part in
            if part.hasPrefix(":"), part.count > 1 {
                return .parameter(String(part.dropFirst()))
            }
            if part.hasPrefix("*"), part.count > 1 {
                precondition(index == parts.count - 1, "'\(part)' must be the last segment of route '\(pattern)'")
                return .rest(String(part.dropFirst()))
            }
            return .literal(String(part))
        }
    }

    /// Whether every path this pattern matches starts with the literal segments `prefix` (a group's prefix).
    func lies(under prefix: [Substring]) -> Bool {
        guard prefix.count <= segments.count else { return false }
        return zip(prefix, segments).allSatisfy { part, segment in segment == .literal(String(part)) }
    }

    /// The parameters captured when `pathSegments` matches, or `nil`.
    func match(_ pathSegments: [Substring]) -> [String: String]? {
        var captured: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .literal(let text):
                guard index < pathSegments.count, pathSegments[index] == text else { return nil }
            case .parameter(let name):
                guard index < pathSegments.count, !pathSegments[index].isEmpty else { return nil }
                captured[name] = String(pathSegments[index])
            case .rest(let name):
                guard index < pathSegments.count else { return nil }
                let rest = pathSegments[index...].joined(separator: "/")
                guard !rest.isEmpty else { return nil }
                captured[name] = rest
                return captured
            }
        }
        return segments.count == pathSegments.count ? captured : nil
    }

    /// Splits after the leading `/`, keeping empty segments so that `/a/` and `/a` stay different paths.
    static func split(_ path: some StringProtocol) -> [Substring] {
        let trimmed = path.hasPrefix("/") ? Substring(path).dropFirst() : Substring(path)
        return trimmed.split(separator: "/", omittingEmptySubsequences: false)
    }
}
