import ATProto
import Foundation

/// Comment text and its `app.bsky.richtext.facet` annotations, as Grain writes them: links (`http(s)://…`), mentions
/// (`@handle`, written with the DID it resolves to) and hashtags, each over a range of UTF-8 bytes. Reading works the
/// other way: the facets an upstream sends are untrusted, so only well-formed ones become links, and only to `http(s)`
/// addresses or our own profile pages.
enum RichText {
    enum Feature: Equatable {
        case link(String)
        /// A handle, without its `@`.
        case mention(String)
        case tag(String)
    }

    /// A feature over bytes `start..<end` of the text's UTF-8.
    struct Facet: Equatable {
        var start: Int
        var end: Int
        var feature: Feature
    }

    /// A run of comment text as a page shows it; `href` for the runs that link somewhere.
    struct Segment: Encodable, Equatable {
        var text: String
        var href: String?
        /// True when the link leaves the site.
        var external: Bool
    }

    /// Tags are at most this many characters (Bluesky's limit, which Grain's parser follows).
    static let maxTagLength = 64
    static let trailingPunctuation: Set<Character> = [".", ",", ";", ":", "!", "?", "'", "\"", "”", "’", "…"]

    /// The links, mentions and tags in `text`, in order.
    static func facets(in text: String) -> [Facet] {
        var facets: [Facet] = []
        var index = text.startIndex
        while index < text.endIndex {
            guard !text[index].isWhitespace else {
                index = text.index(after: index)
                continue
            }
            let tokenEnd = text[index...].firstIndex(where: \.isWhitespace) ?? text.endIndex
            let token = trimmed(text[index..<tokenEnd])
            let start = text.utf8.distance(from: text.startIndex, to: token.startIndex)
            let end = text.utf8.distance(from: text.startIndex, to: token.endIndex)
            if let feature = feature(String(token)) { facets.append(Facet(start: start, end: end, feature: feature)) }
            index = tokenEnd
        }
        return facets
    }

    static func feature(_ token: String) -> Feature? {
        let lower = token.lowercased()
        if lower.hasPrefix("https://") || lower.hasPrefix("http://") {
            guard let url = URL(string: token), url.host?.contains(".") == true else { return nil }
            return .link(token)
        }
        if token.hasPrefix("@") {
            let handle = String(token.dropFirst()).lowercased()
            return Handle.isValid(handle) ? .mention(handle) : nil
        }
        if token.hasPrefix("#") || token.hasPrefix("＃") {
            let tag = String(token.dropFirst())
            guard !tag.isEmpty, tag.count <= maxTagLength, tag.contains(where: { !$0.isNumber && !$0.isPunctuation }) else { return nil }
            return .tag(tag)
        }
        return nil
    }

    /// `token` without trailing punctuation, and without a closing parenthesis that opens nowhere in it.
    static func trimmed(_ token: Substring) -> Substring {
        var token = token
        if token.first == "(" { token = token.dropFirst() }
        while let last = token.last {
            if trailingPunctuation.contains(last) {
                token = token.dropLast()
            } else if last == ")", !token.dropLast().contains("(") {
                token = token.dropLast()
            } else {
                break
            }
        }
        return token
    }

    /// One facet as the record carries it.
    static func json(_ facet: Facet, mentionDID: String?) -> JSONValue {
        let feature: JSONValue =
            switch facet.feature {
            case .link(let uri): .object(["$type": .string("app.bsky.richtext.facet#link"), "uri": .string(uri)])
            case .mention: .object(["$type": .string("app.bsky.richtext.facet#mention"), "did": .string(mentionDID ?? "")])
            case .tag(let tag): .object(["$type": .string("app.bsky.richtext.facet#tag"), "tag": .string(tag)])
            }
        return .object([
            "index": .object(["byteStart": .integer(Int64(facet.start)), "byteEnd": .integer(Int64(facet.end))]),
            "features": .array([feature]),
        ])
    }

    /// `text` cut into runs by the facets an upstream sent. Facets out of range, overlapping, splitting a character,
    /// or pointing anywhere but an `http(s)` address or a DID are ignored: their text stays plain.
    static func segments(_ text: String, facets: [JSONValue]?) -> [Segment] {
        let bytes = Array(text.utf8)
        var links: [(start: Int, end: Int, href: String, external: Bool)] = []
        for facet in facets ?? [] {
            guard let start = facet["index"]?["byteStart"]?.intValue.map(Int.init(clamping:)),
                let end = facet["index"]?["byteEnd"]?.intValue.map(Int.init(clamping:)),
                start >= 0, end <= bytes.count, start < end, isBoundary(bytes, start), isBoundary(bytes, end),
                case .array(let features)? = facet["features"], let first = features.first,
                let target = href(first), !misleads(shown: string(bytes[start..<end]), target: target)
            else { continue }
            links.append((start, end, target.href, target.external))
        }
        links.sort { $0.start < $1.start }
        var segments: [Segment] = []
        var offset = 0
        for link in links where link.start >= offset {
            if link.start > offset { segments.append(Segment(text: string(bytes[offset..<link.start]), href: nil, external: false)) }
            segments.append(Segment(text: string(bytes[link.start..<link.end]), href: link.href, external: link.external))
            offset = link.end
        }
        if offset < bytes.count { segments.append(Segment(text: string(bytes[offset...]), href: nil, external: false)) }
        return segments
    }

    /// Whether a link's text shows an address other than where it leads (`https://bank.example` leading to
    /// `https://evil.example`): such a facet stays plain text. Words that look like no address ("this") may link.
    static func misleads(shown: String, target: (href: String, external: Bool)) -> Bool {
        guard target.external else { return false }
        let text = shown.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "…", with: "")
        guard !text.contains(" "), text.contains(".") else { return false }
        let candidate = text.lowercased().hasPrefix("http://") || text.lowercased().hasPrefix("https://") ? text : "https://" + text
        guard let shownHost = URL(string: candidate)?.host?.lowercased(), shownHost.contains(".") else { return false }
        return shownHost != URL(string: target.href)?.host?.lowercased()
    }

    /// Where a facet feature may lead: an `http(s)` link, or a mentioned account's profile here.
    static func href(_ feature: JSONValue) -> (href: String, external: Bool)? {
        switch feature["$type"]?.stringValue {
        case "app.bsky.richtext.facet#link":
            guard let uri = feature["uri"]?.stringValue, uri.utf8.count <= 2048, let url = URL(string: uri),
                let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil
            else { return nil }
            return (uri, true)
        case "app.bsky.richtext.facet#mention":
            guard let did = feature["did"]?.stringValue, DID.parse(did) != nil else { return nil }
            return (SiteURL.profile(actor: did).path, false)
        default:
            return nil
        }
    }

    /// A UTF-8 offset that does not fall inside a multi-byte character.
    static func isBoundary(_ bytes: [UInt8], _ offset: Int) -> Bool {
        offset == bytes.count || bytes[offset] & 0xC0 != 0x80
    }

    static func string(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
}
