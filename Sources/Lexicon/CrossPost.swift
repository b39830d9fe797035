public import ATProto
import Foundation

/// The `app.bsky.feed.post` Grain writes when a story is also posted to Bluesky: an empty first line
/// (stories have no caption), the place, then `#GrainSocial <story URL>`, with facets for the hashtag
/// and the link so Bluesky renders both, the image embed, and the `grainsocial` tag.
public enum CrossPost {
    public static let collection = "app.bsky.feed.post"
    /// Bluesky's image embed limit; story blobs are made to fit it.
    public static let maxImageBytes = 1_000_000
    static let maxGraphemes = 300

    public static func text(place: String?, storyURL: String) -> String {
        if let place, !place.isEmpty { return "\n📍 \(place)\n\n#GrainSocial \(storyURL)" }
        return "\n#GrainSocial \(storyURL)"
    }

    public static func record(
        place: String?, storyURL: String, image: BlobRef, aspectRatio: AspectRatio, createdAt: String
    ) -> JSONValue {
        var placeText = place
        // Keep within Bluesky's 300 graphemes by shortening the place, never the link.
        while let p = placeText, text(place: p, storyURL: storyURL).count > maxGraphemes {
            placeText = p.count > 1 ? String(p.dropLast(2)) + "…" : nil
        }
        let body = text(place: placeText, storyURL: storyURL)
        let bytes = Array(body.utf8)
        var facets: [JSONValue] = []
        let tag = Array("#GrainSocial".utf8)
        if let start = find(tag, in: bytes) {
            facets.append(
                facet(
                    start, start + tag.count,
                    .object([
                        "$type": .string("app.bsky.richtext.facet#tag"), "tag": .string("GrainSocial"),
                    ])))
        }
        let url = Array(storyURL.utf8)
        if let start = find(url, in: bytes) {
            facets.append(
                facet(
                    start, start + url.count,
                    .object([
                        "$type": .string("app.bsky.richtext.facet#link"), "uri": .string(storyURL),
                    ])))
        }
        return .object([
            "$type": .string(collection),
            "text": .string(body),
            "facets": .array(facets),
            "embed": .object([
                "$type": .string("app.bsky.embed.images"),
                "images": .array([
                    .object([
                        "image": (try? JSONValue(encoding: image)) ?? .null, "alt": .string(""),
                        "aspectRatio": .object(["width": .integer(Int64(aspectRatio.width)), "height": .integer(Int64(aspectRatio.height))]),
                    ])
                ]),
            ]),
            "tags": .array([.string("grainsocial")]),
            "createdAt": .string(createdAt),
        ])
    }

    /// Facet indices are UTF-8 byte offsets, as the richtext lexicon defines them.
    static func facet(_ start: Int, _ end: Int, _ feature: JSONValue) -> JSONValue {
        .object([
            "index": .object(["byteStart": .integer(Int64(start)), "byteEnd": .integer(Int64(end))]),
            "features": .array([feature]),
        ])
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where haystack[i..<(i + needle.count)].elementsEqual(needle) {
            return i
        }
        return nil
    }
}
