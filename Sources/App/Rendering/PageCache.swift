import Caching
import Clocks
import HTTPServer

/// A short cache (a second by default) of whole pages, for anyone and for each signed-in visitor apart (the key holds
/// the session and its seen marks' version, or the paired screen): a busy strip is rendered once a second, not once a
/// request. A page is kept prepared (libmicrohttpd's response, built on its first send), so a hit on the server
/// thread's fast path sends the same bytes and headers again without copying them: no page carries a per-request
/// nonce (docs/architecture.md, "The content policy without a nonce"). Only a 200 without `Set-Cookie` is kept. The
/// shared ``Cache`` on the injected monotonic clock holds the pages, `capacity` of them, the least recently used going first;
/// any write that changes what a page shows clears it all (`removeAll`).
final class PageCache: Sendable {
    private struct Entry: Sendable {
        /// When the page stops being fresh; the cache drops it ten TTLs later (see `servable`).
        var expires: Duration
        var page: PreparedResponse
        /// Whether it may be kept: a 200 without `Set-Cookie`. Others are only shared with concurrent misses.
        var keep: Bool
        /// Set while one request re-renders an expired page; the others keep getting the old one.
        var refreshing = false
    }

    let ttl: Duration
    private let entries: Cache<Key, Entry>
    static let capacity = 1024
    private let clock: MonotonicClock

    init(ttl: Duration, clock: MonotonicClock = .continuous) {
        self.ttl = ttl
        self.clock = clock
        // An expired page is served while it is re-rendered for up to ten TTLs more; after that it is of no use.
        entries = Cache(capacity: ttl > .zero ? Self.capacity : 0, lifetime: ttl * 11)
    }

    private var now: Duration { clock.now() }

    /// The key of a page: the names it was asked on exactly as sent (Host and the forwarded ones: pages carry links
    /// built on the origin), the path and query, and for a signed-in visitor their session and how much they have
    /// seen (a seen mark changes the strip). The server-thread fast path computes the same key from the same
    /// headers; an entry is only ever stored by the full path, after the origin was accepted. Made of the request's
    /// own strings, so building one allocates nothing.
    struct Key: Hashable, Sendable {
        var host: String? = nil
        var forwardedHost: String? = nil
        var forwardedProto: String? = nil
        var path: String
        var query = ""
        var visitor: Visitor? = nil
    }

    /// Whose page it is: a session (by its id's hash) and its seen marks' version, or a paired screen.
    struct Visitor: Hashable, Sendable {
        var id: String
        var seen = 0
    }

    static func key(_ request: Request, visitor: Visitor?) -> Key {
        Key(
            host: request.headers["Host"], forwardedHost: request.headers["X-Forwarded-Host"],
            forwardedProto: request.headers["X-Forwarded-Proto"], path: request.path, query: request.query, visitor: visitor)
    }

    /// The cached page for `key`, or nil when the caller should render it.
    ///
    /// An expired page is still served to everyone but the one caller chosen to re-render it (for up
    /// to ten times the TTL), so a busy page never sends a stampede of renders upstream at once.
    func get(_ key: Key) -> Response? {
        guard ttl > .zero else { return nil }
        let now = self.now
        let hit: PreparedResponse?? = entries.modify(key, now: now) { entry in
            if servable(entry, now: now) { return entry.page }
            entry.refreshing = true
            return nil
        }
        return (hit ?? nil)?.response
    }

    /// Fresh, or expired but being re-rendered by one request (the cache keeps it ten times the TTL past expiry).
    private func servable(_ entry: Entry, now: Duration) -> Bool {
        entry.expires > now || entry.refreshing
    }

    /// A fresh (or being-refreshed) page without claiming a refresh: for the server thread's fast path,
    /// which leaves expired pages to the async path so that one request re-renders them.
    func peek(_ key: Key) -> PreparedResponse? {
        guard ttl > .zero else { return nil }
        let now = self.now
        guard let entry = entries.peek(key, now: now), servable(entry, now: now) else { return nil }
        return entry.page
    }

    /// A rendered page as kept: fresh for `ttl` from now, and kept at all only when a 200 without `Set-Cookie`.
    private func makeEntry(_ response: Response) -> Entry {
        Entry(
            expires: now + ttl, page: PreparedResponse(response), keep: response.status == .ok && response.headers["Set-Cookie"] == nil)
    }

    func removeAll() { entries.removeAll() }

    /// The page for `key`: from the cache, or rendered by `render`, with concurrent misses for the same key
    /// sharing one render instead of each going upstream (a cold cache under load otherwise stampedes).
    func page(_ key: Key, render: @escaping @Sendable () async throws -> Response) async throws -> Response {
        if let cached = get(key) { return cached }
        guard ttl > .zero else { return try await render() }
        let now = self.now
        let rendered = try await entries.value(for: key, now: now, usable: { $0.expires > now }, keep: { $0.keep }) { [self] in
            let response = try await render()
            return makeEntry(response)
        }
        return rendered.page.response
    }
}
