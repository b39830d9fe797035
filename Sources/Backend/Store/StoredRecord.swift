public import ATProto
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
    /// One of its self-labels has hide severity (`gore`, `!hide`, …): Grain serves it to nobody.
    public var hiddenBySelfLabel = false
    /// The household owner hid it for everyone.
    public var hiddenByOwner = false

    /// Served by no story query and no `getRecord`.
    public var isHidden: Bool { hiddenBySelfLabel || hiddenByOwner }
}

extension StoredRecord {
    /// The record's self-labels as `com.atproto.label.defs#label` values, issued by its author.
    var selfLabels: [Label] {
        RecordStore.selfLabels(of: value).map {
            Label(src: did, uri: uri.description, cid: cid, val: $0, cts: createdAt)
        }
    }
}
