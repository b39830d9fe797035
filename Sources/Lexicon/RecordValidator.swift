public import ATProto
import Foundation

/// Checks records against the lexicons grain-stories writes, the way hatk's `validateRecord` does:
/// the first problem becomes `InvalidRecord: <path>: <message>`.
public enum RecordValidator {
    public struct Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        public let path: String
        public let message: String
        public var description: String { "InvalidRecord: \(path): \(message)" }
    }

    /// Collections this server knows; records of others are refused rather than stored unchecked.
    public static let knownCollections: Set<String> = [
        StoryRecord.collection, ProfileRecord.collection, CrossPost.collection, FavoriteRecord.collection,
        CommentRecord.collection, BlockRecord.collection,
    ]

    public static func validate(_ record: JSONValue, collection: String) throws(Invalid) {
        guard case .object(let fields) = record else { throw Invalid(path: "record", message: "must be an object") }
        if let type = fields["$type"], type != .string(collection) {
            throw Invalid(path: "record/$type", message: "must be \(collection)")
        }
        switch collection {
        case StoryRecord.collection: try validateStory(fields)
        case ProfileRecord.collection: try validateProfile(fields)
        case CrossPost.collection: try validatePost(fields)
        case FavoriteRecord.collection: try validateFavorite(fields)
        case CommentRecord.collection: try validateComment(fields)
        case BlockRecord.collection: try validateBlock(fields)
        default: throw Invalid(path: "collection", message: "unknown collection \(collection)")
        }
    }

    static func validateStory(_ f: [String: JSONValue]) throws(Invalid) {
        try blob(f["media"], path: "record/media", required: true, accept: ["image/", "video/"], maxSize: 5_000_000)
        guard case .object(let ratio)? = f["aspectRatio"] else {
            throw Invalid(path: "record/aspectRatio", message: "is required")
        }
        for key in ["width", "height"] {
            guard let v = ratio[key]?.intValue, v >= 1 else {
                throw Invalid(path: "record/aspectRatio/\(key)", message: "must be an integer of at least 1")
            }
        }
        if let location = f["location"] {
            guard case .object(let l) = location, case .string? = l["value"] else {
                throw Invalid(path: "record/location/value", message: "is required and must be a string")
            }
            try optionalString(l["name"], path: "record/location/name")
        }
        if let address = f["address"] {
            guard case .object(let a) = address, case .string(let country)? = a["country"], (2...10).contains(country.count)
            else { throw Invalid(path: "record/address/country", message: "must be a country code of 2 to 10 characters") }
            for key in ["postalCode", "region", "locality", "street", "name"] {
                try optionalString(a[key], path: "record/address/\(key)")
            }
        }
        if let labels = f["labels"] { try selfLabels(labels) }
        try datetime(f["createdAt"], path: "record/createdAt", required: true)
    }

    static func validateProfile(_ f: [String: JSONValue]) throws(Invalid) {
        try optionalString(f["displayName"], path: "record/displayName", maxLength: 640, maxGraphemes: 64)
        try optionalString(f["description"], path: "record/description", maxLength: 2560, maxGraphemes: 256)
        try blob(f["avatar"], path: "record/avatar", required: false, accept: ["image/png", "image/jpeg"], maxSize: 1_000_000)
        try datetime(f["createdAt"], path: "record/createdAt", required: false)
    }

    /// `app.bsky.feed.post` as far as cross-posts use it: text, facets, one image embed, tags.
    static func validatePost(_ f: [String: JSONValue]) throws(Invalid) {
        guard case .string(let text)? = f["text"] else { throw Invalid(path: "record/text", message: "is required") }
        guard text.utf8.count <= 3000, text.count <= 300 else {
            throw Invalid(path: "record/text", message: "is too long (at most 300 characters)")
        }
        try facets(f["facets"], text: text)
        if let embed = f["embed"] {
            guard embed["$type"] == .string("app.bsky.embed.images"), case .array(let images)? = embed["images"],
                (1...4).contains(images.count)
            else { throw Invalid(path: "record/embed", message: "must be an app.bsky.embed.images with 1 to 4 images") }
            for (i, image) in images.enumerated() {
                try blob(image["image"], path: "record/embed/images/\(i)/image", required: true, accept: ["image/"], maxSize: CrossPost.maxImageBytes)
                guard case .string? = image["alt"] else {
                    throw Invalid(path: "record/embed/images/\(i)/alt", message: "is required (it may be empty)")
                }
            }
        }
        if let tags = f["tags"] {
            guard case .array(let list) = tags, list.count <= 8 else { throw Invalid(path: "record/tags", message: "at most 8 tags") }
        }
        try datetime(f["createdAt"], path: "record/createdAt", required: true)
    }

    /// `social.grain.favorite`: `subject` (an AT-URI) and `createdAt`.
    static func validateFavorite(_ f: [String: JSONValue]) throws(Invalid) {
        try atURI(f["subject"], path: "record/subject", required: true)
        try datetime(f["createdAt"], path: "record/createdAt", required: true)
    }

    /// `social.grain.comment`: `text` (at most 300 graphemes and 3000 bytes), `subject`, `createdAt`; optional `facets`,
    /// `replyTo` and `focus` (AT-URIs).
    static func validateComment(_ f: [String: JSONValue]) throws(Invalid) {
        guard case .string(let text)? = f["text"] else { throw Invalid(path: "record/text", message: "is required") }
        guard text.utf8.count <= CommentRecord.maxBytes, text.count <= CommentRecord.maxGraphemes else {
            throw Invalid(path: "record/text", message: "is too long (at most \(CommentRecord.maxGraphemes) characters)")
        }
        try atURI(f["subject"], path: "record/subject", required: true)
        try atURI(f["replyTo"], path: "record/replyTo", required: false)
        try atURI(f["focus"], path: "record/focus", required: false)
        try facets(f["facets"], text: text)
        try datetime(f["createdAt"], path: "record/createdAt", required: true)
    }

    /// `social.grain.graph.block`: `subject` (a DID) and `createdAt`.
    static func validateBlock(_ f: [String: JSONValue]) throws(Invalid) {
        guard case .string(let subject)? = f["subject"], DID.isValid(subject) else {
            throw Invalid(path: "record/subject", message: "must be a DID")
        }
        try datetime(f["createdAt"], path: "record/createdAt", required: true)
    }

    /// `app.bsky.richtext.facet` arrays: each facet's byte range lies within the text and it has a features array.
    static func facets(_ value: JSONValue?, text: String) throws(Invalid) {
        guard let value else { return }
        guard case .array(let list) = value else { throw Invalid(path: "record/facets", message: "must be an array") }
        guard list.count <= 100 else { throw Invalid(path: "record/facets", message: "at most 100 facets") }
        for (i, facet) in list.enumerated() {
            guard let start = facet["index"]?["byteStart"]?.intValue, let end = facet["index"]?["byteEnd"]?.intValue,
                start >= 0, end >= start, end <= Int64(text.utf8.count)
            else { throw Invalid(path: "record/facets/\(i)/index", message: "must lie within the text") }
            guard case .array? = facet["features"] else {
                throw Invalid(path: "record/facets/\(i)/features", message: "is required and must be an array")
            }
        }
    }

    static func atURI(_ value: JSONValue?, path: String, required: Bool) throws(Invalid) {
        guard let value else {
            if required { throw Invalid(path: path, message: "is required") }
            return
        }
        guard case .string(let s) = value, (try? ATURI(s)) != nil else { throw Invalid(path: path, message: "must be an AT-URI") }
    }

    static func blob(_ value: JSONValue?, path: String, required: Bool, accept: [String], maxSize: Int) throws(Invalid) {
        guard let value else {
            if required { throw Invalid(path: path, message: "is required") }
            return
        }
        guard value["$type"] == .string("blob"), let link = value["ref"]?["$link"]?.stringValue, (try? CID(link)) != nil,
            let mime = value["mimeType"]?.stringValue, let size = value["size"]?.intValue
        else { throw Invalid(path: path, message: "must be a blob reference") }
        guard accept.contains(where: { $0.hasSuffix("/") ? mime.hasPrefix($0) : mime == $0 }) else {
            throw Invalid(path: path, message: "mimeType \(mime) is not accepted")
        }
        guard size >= 0, size <= maxSize else { throw Invalid(path: path, message: "blob is larger than \(maxSize) bytes") }
    }

    static func selfLabels(_ value: JSONValue) throws(Invalid) {
        guard case .array(let values)? = value["values"] else {
            throw Invalid(path: "record/labels/values", message: "is required")
        }
        guard values.count <= 10 else { throw Invalid(path: "record/labels/values", message: "at most 10 labels") }
        for (i, v) in values.enumerated() {
            guard case .string(let val)? = v["val"], !val.isEmpty, val.utf8.count <= 128 else {
                throw Invalid(path: "record/labels/values/\(i)/val", message: "must be a string of at most 128 bytes")
            }
        }
    }

    static func datetime(_ value: JSONValue?, path: String, required: Bool) throws(Invalid) {
        guard let value else {
            if required { throw Invalid(path: path, message: "is required") }
            return
        }
        guard case .string(let s) = value, UTCTime(iso8601: s) != nil else {
            throw Invalid(path: path, message: "must be an RFC 3339 datetime")
        }
    }

    static func optionalString(
        _ value: JSONValue?, path: String, maxLength: Int = 10_000, maxGraphemes: Int = 10_000
    )
        throws(Invalid)
    {
        guard let value else { return }
        guard case .string(let s) = value else { throw Invalid(path: path, message: "must be a string") }
        guard s.utf8.count <= maxLength, s.count <= maxGraphemes else {
            throw Invalid(path: path, message: "is too long (at most \(maxGraphemes) characters)")
        }
    }
}
