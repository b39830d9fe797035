import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A response turned into libmicrohttpd's form once and then sent as it is, as often as asked. MHD counts the
/// connections still sending it, so each answer after the first only queues the same response: no body copied, no
/// header added again. What the fast path's caches hand back.
///
/// Each server thread gets a copy of its own, made the first time that thread sends it: MHD takes a response's lock
/// to count its senders and, for a file, for the whole of each send from it, so two threads sharing one response
/// take turns (a photo served from one shared response ran at about two thirds of the rate of one per thread).
///
/// It goes out exactly as built: the server's baseline headers are added the first time, but no `X-Request-Id`
/// (nothing is logged for such an answer, so there is no log line for an id to lead to).
public final class PreparedResponse: Sendable {
    /// The response as given, for the async path and for tests.
    public let response: Response
    /// By server thread (`pthread_self`); the pool's threads are few and fixed.
    private let built = Mutex<[UInt: Built]>([:])

    /// MHD's response and the status it goes out with (a file that could not be opened is sent as a 404).
    struct Built: @unchecked Sendable {
        let handle: OpaquePointer
        let status: HTTPStatus
    }

    public init(_ response: Response) { self.response = response }

    /// This thread's MHD response, built on its first use with `defaults` for the headers `response` does not set.
    func handle(defaults: HTTPHeaders) -> Built? {
        let thread = UInt(pthread_self())
        return built.withLock { built in
            if let mine = built[thread] { return mine }
            var response = response
            guard let handle = MHDResponse.make(&response, defaults: defaults) else { return nil }
            let made = Built(handle: handle, status: response.status)
            built[thread] = made
            return made
        }
    }

    deinit {
        // Connections still sending it hold references of their own; MHD frees each after its last.
        for made in built.withLock({ $0.values }) { MHD_destroy_response(made.handle) }
    }
}
