/// A fragment of markup that is trusted as-is and inserted without escaping in text context.
///
/// `init(unsafeRaw:)` is the only way to bypass the renderer's escaping, so a search for `unsafeRaw` lists every
/// place where unescaped HTML enters a page. In attribute values, URLs and JSON the markup is still escaped: it is
/// HTML, not an attribute value.
public struct SafeHTML: Sendable, Equatable, Encodable {
    /// The markup, emitted verbatim in text context.
    public let html: String

    /// Marks `unsafeRaw` as trusted markup. Only pass strings built from trusted templates or escaped values.
    /// - Parameter unsafeRaw: markup that must never contain unescaped user input.
    public init(unsafeRaw: String) {
        self.html = unsafeRaw
    }

    /// Encodes the markup as a plain string for ordinary encoders.
    ///
    /// ``TemplateValue/init(encoding:)`` recognises the type itself (not a marker in the encoded form), so
    /// attacker-controlled data that happens to look like an encoded `SafeHTML` can never become trusted markup.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(html)
    }
}
