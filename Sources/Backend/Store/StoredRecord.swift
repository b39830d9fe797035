import ATProto
import Lexicon

/// A record row as the store keeps it.
public struct StoredRecord: Sendable, Equatable {
    public var uri: ATURI
    public var cid: String
    public var did: String
    public var handle: String
    public var value: JSONValue
    public var createdAt: String
    public var indexedAt: String
}

extension StoredRecord {
    /// The record's self-labels as `com.atproto.label.defs#label` values, issued by its author.
    var selfLabels: [Label] {
        BackendStore.selfLabels(of: value).map {
            Label(src: did, uri: uri.description, cid: cid, val: $0, cts: createdAt)
        }
    }
}
