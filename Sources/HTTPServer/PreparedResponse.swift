import CMicroHTTPD
import Synchronization

/// A response turned into libmicrohttpd's form once and then sent as it is, as often as asked and from any server
/// thread. MHD counts the connections still sending it, so each answer after the first only queues the same
/// response: no body copied, no header added again. What the fast path's caches hand back.
///
/// It goes out exactly as built: the server's baseline headers are added the first time, but no `X-Request-Id`
/// (nothing is logged for such an answer, so there is no log line for an id to lead to).
public final class PreparedResponse: Sendable {
    /// The response as given, for the async path and for tests.
    public let response: Response
    private let built = Mutex<Built?>(nil)

    /// MHD's response and the status it goes out with (a file that could not be opened is sent as a 404).
    struct Built: @unchecked Sendable {
        let handle: OpaquePointer
        let status: HTTPStatus
    }

    public init(_ response: Response) { self.response = response }

    /// MHD's response, built on first use with `defaults` for the headers `response` does not set itself.
    func handle(defaults: HTTPHeaders) -> Built? {
        built.withLock { built in
            if let built { return built }
            var response = response
            guard let handle = MHDResponse.make(&response, defaults: defaults) else { return nil }
            built = Built(handle: handle, status: response.status)
            return built
        }
    }

    deinit {
        // Connections still sending it hold references of their own; MHD frees it after the last.
        if let built = built.withLock({ $0 }) { MHD_destroy_response(built.handle) }
    }
}
