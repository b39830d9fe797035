import HTTPServer
import Synchronization

/// A short cache (a second by default) of whole pages, for anyone and for each signed-in visitor apart: a busy strip is
/// rendered once a second, not once a request. A page is kept prepared (libmicrohttpd's response, built on its first
/// send), so a hit on the server thread's fast path sends the same bytes and headers again without copying them: no
/// page carries a per-request nonce (docs/architecture.md, "The content policy without a nonce").
final class PageCache: Sendable {
    private struct Entry {
        var expires: ContinuousClock.Instant
        var page: PreparedResponse
        /// Set while one request re-renders an expired page; the others keep getting the old one.
        var refreshing = false
    }

    let ttl: Duration
    private let entries = Mutex<[Key: Entry]>([:])
    static let capacity = 1024

    init(ttl: Duration) { self.ttl = ttl }

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
        let now = ContinuousClock.now
        let hit: Entry? = entries.withLock { entries in
            guard var entry = entries[key] else { return nil }
            if servable(entry, now: now) { return entry }
            entry.refreshing = true
            entries[key] = entry
            return nil
        }
        return hit?.page.response
    }

    /// Fresh, or expired but being re-rendered by one request (served stale for up to ten times the TTL).
    private func servable(_ entry: Entry, now: ContinuousClock.Instant) -> Bool {
        entry.expires >= now || (entry.refreshing && entry.expires + ttl * 10 >= now)
    }

    /// A fresh (or being-refreshed) page without claiming a refresh: for the server thread's fast path,
    /// which leaves expired pages to the async path so that one request re-renders them.
    func peek(_ key: Key) -> PreparedResponse? {
        guard ttl > .zero else { return nil }
        let now = ContinuousClock.now
        guard let entry = entries.withLock({ $0[key] }), servable(entry, now: now) else { return nil }
        return entry.page
    }

    func put(_ key: Key, _ response: Response) {
        guard ttl > .zero, response.status == .ok, response.headers["Set-Cookie"] == nil else { return }
        let expires = ContinuousClock.now + ttl
        let page = PreparedResponse(response)
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll() }
            entries[key] = Entry(expires: expires, page: page)
        }
    }

    func removeAll() { entries.withLock { $0.removeAll() } }

    private let inFlight = Mutex<[Key: Task<Response, any Error>]>([:])

    /// The page for `key`: from the cache, or rendered by `render`, with concurrent misses for the same key
    /// sharing one render instead of each going upstream (a cold cache under load otherwise stampedes).
    func page(_ key: Key, render: @escaping @Sendable () async throws -> Response) async throws -> Response {
        if let cached = get(key) { return cached }
        guard ttl > .zero else { return try await render() }
        let (task, owner) = inFlight.withLock { inFlight -> (Task<Response, any Error>, Bool) in
            if let running = inFlight[key] { return (running, false) }
            let task = Task { try await render() }
            inFlight[key] = task
            return (task, true)
        }
        let response: Response
        do {
            response = try await task.value
        } catch {
            if owner { inFlight.withLock { $0[key] = nil } }
            throw error
        }
        if owner {
            put(key, response)
            inFlight.withLock { $0[key] = nil }
            return response
        }
        return response
    }
}
