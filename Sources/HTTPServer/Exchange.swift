import CMicroHTTPD
import Synchronization

/// A libmicrohttpd connection pointer. MHD allows `MHD_resume_connection` from any thread; every other use stays
/// on the connection's own worker thread.
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// The state of one request, shared by its MHD worker thread and the Swift task running its handler.
final class Exchange: Sendable {
    enum Phase: Sendable {
        /// Created from the request line; the access handler has not been called yet.
        case new
        /// Collecting the body into memory, up to `limit`.
        case receiving
        /// The body passed the limit: bytes are dropped (up to an allowance) until the request ends, then 413.
        case discarding
        /// The handler task owns the request; the connection is suspended until it stores a response.
        case running
        /// A response has been queued.
        case finished
    }

    struct State: Sendable {
        var phase: Phase = .new
        var method = HTTPMethod.get
        var limit = 0
        var body: [UInt8] = []
        var discarded = 0
        var response: Response?
        var connection: ConnectionHandle?
        var task: Task<Void, Never>?
        /// Set by shutdown when it gives up on the handler, so a late task is cancelled at once.
        var abandoned = false
        /// The handler's response was handed to MHD and is counted in `ServerCore.unsentResponses` until MHD
        /// reports the request complete.
        var awaitsSend = false
    }

    /// The raw request target ("/a%20b?x=1") as sent on the request line.
    let target: String
    let state = Mutex(State())

    init(target: String) {
        self.target = target
    }

    func attach(_ task: Task<Void, Never>) {
        let abandoned = state.withLock { state in
            state.task = task
            return state.abandoned
        }
        if abandoned {
            task.cancel()
        }
    }

    func abandon() {
        let task = state.withLock { state in
            state.abandoned = true
            return state.task
        }
        task?.cancel()
    }
}
