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
        /// Collecting the body into memory or its temporary file, up to `limit`.
        case receiving
        /// The body passed the limit (or could not be stored): bytes are dropped (up to an allowance) until the
        /// request ends, then `refusal` is answered.
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
        /// The body's file, for routes that stream to disk; removed by `releaseBody()`.
        var file: TemporaryBody?
        /// Body bytes received so far, in memory or on disk.
        var received = 0
        var discarded = 0
        /// How much of a discarded body is read before the connection is closed instead of answered.
        var discardAllowance = 0
        /// What a discarded body is answered with once it ends (set when discarding begins).
        var refusal: HTTPStatus?
        /// The connection's watch entry while a body arrives, for the minimum-rate check.
        var watched: ConnectionWatch.Watched?
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

    /// Drops the body: memory freed, temporary file closed and deleted. Called when the handler has returned; `end()`
    /// does it again when MHD reports the request over.
    func releaseBody() {
        let file = state.withLock { state in
            state.body = []
            defer { state.file = nil }
            return state.file
        }
        file?.remove()
    }

    /// MHD reports the request over, whichever way it ended: the body goes (if `releaseBody()` has not taken it yet),
    /// and the answer is whether a handler's response was counted as awaiting its send. One lock, on every request.
    func end() -> Bool {
        let (awaitsSend, file) = state.withLock { state in
            state.body = []
            defer { state.file = nil }
            return (state.awaitsSend, state.file)
        }
        file?.remove()
        return awaitsSend
    }

    func abandon() {
        let task = state.withLock { state in
            state.abandoned = true
            return state.task
        }
        task?.cancel()
    }
}
