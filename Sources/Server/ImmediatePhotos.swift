import App
import Backend
import HTTPServer
import Synchronization

/// The embedded backend's photos (`/img/…`) answered on the server thread, without a task: the same checks as the
/// full path's middleware (`BackendHosts`, and `HouseholdReads` on a household server), each made from memory, and
/// the file sent from its descriptor. Whatever cannot be decided from memory (a photo not looked up since the last
/// write, a paired screen's cookie, a session not in memory, a request through a proxy) is left to the full path,
/// which decides the same way with the database.
///
/// A photo asked for whole is answered with a response prepared once (its file held open, its headers built) until
/// the backend's next write, since the bytes are everyone's who may see them; the checks still run for every request.
final class ImmediatePhotos: Sendable {
    let backend: EmbeddedBackend
    let hosts: BackendHosts
    /// Whether a household's photo may go to this request (a live session in memory); nil on a public server.
    let household: (@Sendable (Request) -> Bool)?

    private struct Prepared {
        var commits: UInt64 = 0
        var photos: [String: PreparedResponse] = [:]
    }

    /// Open files, so few: the photos of the stories being watched this minute.
    static let capacity = 64
    private let prepared = Mutex(Prepared())

    init(backend: EmbeddedBackend, hosts: BackendHosts, household: (@Sendable (Request) -> Bool)?) {
        self.backend = backend
        self.hosts = hosts
        self.household = household
    }

    func answer(_ request: Request) -> PreparedResponse? {
        // Without the peer address the fast path cannot tell a trusted proxy's forwarded name from anyone's, and the
        // full path decides by the forwarded name: such a request goes there.
        guard request.headers["X-Forwarded-Host"] == nil, hosts.accepts(request) else { return nil }
        if let household, !household(request) { return nil }
        let whole = ["If-None-Match", "Range", "If-Range"].allSatisfy { request.headers[$0] == nil }
        let commits = backend.store.commitCount
        if whole, let ready = prepared.withLock({ $0.commits == commits ? $0.photos[request.path] : nil }) { return ready }
        guard let response = backend.immediateImage(request) else { return nil }
        let answer = PreparedResponse(household == nil ? response : HouseholdReads.privately(response))
        guard whole, response.status == .ok else { return answer }
        prepared.withLock { state in
            if state.commits != commits || state.photos.count >= Self.capacity { state = Prepared(commits: commits) }
            state.photos[request.path] = answer
        }
        return answer
    }
}
