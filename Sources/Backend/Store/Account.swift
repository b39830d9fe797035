public import ATProto

/// A household account of the embedded backend.
public struct Account: Sendable, Equatable {
    public var did: DID
    public var handle: String
    public var createdAt: String
}
