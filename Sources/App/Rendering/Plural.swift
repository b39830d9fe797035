/// A count with its noun as English says it: "1 comment", "0 comments", "3 people". One place, so no page says
/// "1 comments".
enum Plural {
    /// "1 comment", "2 comments"; `plural` when the noun does not just take an s.
    static func count(_ n: some BinaryInteger, _ singular: String, _ plural: String? = nil) -> String {
        "\(n) \(noun(n, singular, plural))"
    }

    /// The noun alone, for a count shown apart from it.
    static func noun(_ n: some BinaryInteger, _ singular: String, _ plural: String? = nil) -> String {
        n == 1 ? singular : plural ?? singular + "s"
    }
}
