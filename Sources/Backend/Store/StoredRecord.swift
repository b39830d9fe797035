import ATProto

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
