import App
import Backend
import HTTPServer
import Storage

/// The embedded backend's photos (`/img/…`) answered on the server thread, without a task: the same checks as the
/// full path's middleware (`BackendHosts`, and `HouseholdReads` on a household server), each made from memory, and
/// the file sent from its descriptor. Whatever cannot be decided from memory (a photo not looked up since the last
/// write, a paired screen not read since then, a session not in memory) is left to the full path, which decides the
/// same way with the database. The name is judged as the full path judges it: a trusted proxy's forwarded name, else
/// the Host (the server thread hands the fast path the peer address whenever a proxy is trusted).
///
/// A photo asked for whole is answered with a response prepared once (its file held open, its headers built) until
/// the backend's next write, since the bytes are everyone's who may see them; the checks still run for every request.
final class ImmediatePhotos: Sendable {
    let backend: EmbeddedBackend
    let hosts: BackendHosts
    /// Whether a household's photo may go to this request (a live session in memory); nil on a public server.
    let household: (@Sendable (Request) -> Bool)?

    /// Open files, so few: the photos of the stories being watched this minute.
    static let capacity = 64
    /// Whole photos' prepared answers, by the name asked on and the path, until the backend's next write.
    private let prepared: UntilNextWrite<Key, PreparedResponse>

    /// Made of the request's own strings: a photo's hit builds no key string.
    private struct Key: Hashable, Sendable {
        let name: String?
        let path: String
    }

    init(backend: EmbeddedBackend, hosts: BackendHosts, household: (@Sendable (Request) -> Bool)?) {
        self.backend = backend
        self.hosts = hosts
        self.household = household
        prepared = backend.store.untilNextWrite(capacity: Self.capacity)
    }

    func answer(_ request: Request) -> PreparedResponse? {
        if let household, !household(request) { return nil }
        let whole = ["If-None-Match", "Range", "If-Range"].allSatisfy { request.headers[$0] == nil }
        // Kept by the name it was judged by as well, so a kept answer is one whose name was accepted.
        let key = Key(name: request.forwardedHost ?? request.headers["Host"], path: request.path)
        let commits = prepared.commits
        if whole, let ready = prepared.value(for: key) { return ready }
        guard hosts.accepts(request), let response = backend.immediateImage(request) else { return nil }
        let answer = PreparedResponse(household == nil ? response : HouseholdReads.privately(response))
        guard whole, response.status == .ok else { return answer }
        prepared.remember(answer, for: key, readAt: commits)
        return answer
    }
}
