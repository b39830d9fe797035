/// The Content-Security-Policy of every HTML page: scripts and styles only from our own files (no page has an inline
/// script, style or handler, so none needs a nonce), with exactly the outside sources the deployment needs and
/// nothing wider.
public struct ContentPolicy: Sendable {
    /// Sources beyond our own origin.
    public struct Sources: Sendable, Equatable {
        /// Where story images may come from besides us (a remote hatk's image host, `https:` by default).
        public var images: [String] = ["https:"]
        /// Where forms may lead besides us: the remote authorization server's origin, since Chromium applies
        /// `form-action` to the redirect that follows the sign-in form's POST.
        public var formActions: [String] = []
        public init() {}
    }

    let sources: Sources

    public init(_ sources: Sources) { self.sources = sources }

    /// The policy for one page. `blob:` images and media are the create form's preview of the chosen photo or clip.
    func header(frameAncestors: [String] = []) -> String {
        let images = (["'self'", "data:", "blob:"] + sources.images).joined(separator: " ")
        let forms = (["'self'"] + sources.formActions).joined(separator: " ")
        let frames = frameAncestors.isEmpty ? "'none'" : frameAncestors.joined(separator: " ")
        return "default-src 'self'; script-src 'self'; style-src 'self'; img-src \(images); media-src 'self' blob:; "
            + "object-src 'none'; base-uri 'none'; form-action \(forms); frame-ancestors \(frames)"
    }

    /// Whether a browser honours Cross-Origin-Opener-Policy on `origin`: only on HTTPS and on localhost (a
    /// "potentially trustworthy" origin). Elsewhere Chromium ignores it and logs a console error, so it is left out.
    static func isTrustworthy(_ origin: String) -> Bool {
        if origin.hasPrefix("https://") { return true }
        guard let rest = origin.split(separator: "://", maxSplits: 1).last else { return false }
        let host = rest.hasPrefix("[") ? String(rest.prefix { $0 != "]" }.dropFirst()) : String(rest.prefix { $0 != ":" })
        return host == "localhost" || host.hasSuffix(".localhost") || host.hasPrefix("127.") || host == "::1"
    }
}
