/// An `at://authority/collection/rkey` URI naming one record. The authority is a DID or a handle.
public struct ATURI: Hashable, Sendable, CustomStringConvertible {
    public let authority: String
    public let collection: String
    public let rkey: String

    public init(authority: String, collection: String, rkey: String) {
        self.authority = authority
        self.collection = collection
        self.rkey = rkey
    }

    /// Parses a record URI; collection and rkey are required here because every caller needs them.
    public init(_ string: String) throws(SyntaxError) {
        guard string.hasPrefix("at://"), string.utf8.count <= 8192 else { throw SyntaxError(kind: "AT-URI", input: string) }
        let rest = string.dropFirst(5)
        guard !rest.contains("?"), !rest.contains("#") else { throw SyntaxError(kind: "AT-URI", input: string) }
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3 else { throw SyntaxError(kind: "AT-URI", input: string) }
        guard DID.isValid(parts[0]) || Handle.isValid(parts[0]), NSID.isValid(parts[1]), RecordKey.isValid(parts[2])
        else { throw SyntaxError(kind: "AT-URI", input: string) }
        authority = parts[0]
        collection = parts[1]
        rkey = parts[2]
    }

    public var description: String { "at://\(authority)/\(collection)/\(rkey)" }
}
