extension Request {
    /// The query's `name=value` pairs in order, decoded with `+` as space. Malformed escapes are kept literally,
    /// empty pairs are skipped, and a pair without `=` has the value `""`.
    public var queryItems: [(name: String, value: String)] {
        guard !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            guard let equals = pair.firstIndex(of: "=") else {
                return (name: PercentDecoding.decode(pair, plusAsSpace: true), value: "")
            }
            return (
                name: PercentDecoding.decode(pair[..<equals], plusAsSpace: true),
                value: PercentDecoding.decode(pair[pair.index(after: equals)...], plusAsSpace: true)
            )
        }
    }

    /// The first decoded value of the query parameter `name`, or `nil` if it is absent.
    public func query(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }
}
