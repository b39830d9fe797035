extension RequestHeadFields {
    /// The path with the query, as a link back to this request names it (`/profile/maya?x=1`); the path is the
    /// decoded one, so pass it through a local-path check before it goes into a `Location`.
    public var pathAndQuery: String { query.isEmpty ? path : path + "?" + query }

    /// The query's `name=value` pairs in order, decoded with `+` as space. Malformed escapes are kept literally,
    /// empty pairs are skipped, and a pair without `=` has the value `""`.
    public var queryItems: [(name: String, value: String)] {
        guard !query.isEmpty else { return [] }
        // Split the UTF-8 bytes, as `URLEncodedForm` does, not Characters: a combining mark right after `&` or `=`
        // forms one grapheme with it and hid the delimiter (found by the form fuzzer comparing the two parsers).
        return query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).map { pair in
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else {
                return (name: PercentDecoding.decode(Substring(pair), plusAsSpace: true), value: "")
            }
            return (
                name: PercentDecoding.decode(Substring(pair[..<equals]), plusAsSpace: true),
                value: PercentDecoding.decode(Substring(pair[pair.index(after: equals)...]), plusAsSpace: true)
            )
        }
    }

    /// The first decoded value of the query parameter `name`, or `nil` if it is absent.
    public func query(_ name: String) -> String? {
        FieldReads.note(name, from: .query)
        return queryItems.first { $0.name == name }?.value
    }
}
