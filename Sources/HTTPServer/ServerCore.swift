import CMicroHTTPD
import Foundation
import Logging
import Synchronization

/// The daemon pointer; MHD's daemon functions are thread-safe.
struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// Everything the MHD callbacks reach through their closure pointer: the router, and the set of suspended
/// connections that shutdown must resume before `MHD_stop_daemon` (which hangs otherwise).
final class ServerCore: Sendable {
    enum Phase: Sendable {
        case idle
        case serving
        /// Shutting down: no new connections; handlers still run, and responses carry `Connection: close`.
        case draining
        /// Handlers are no longer started; requests get 503.
        case stopped
    }

    struct State: Sendable {
        var phase = Phase.idle
        var daemon: DaemonHandle?
        var port: UInt16 = 0
        var suspended: [ObjectIdentifier: Exchange] = [:]
    }

    /// Bytes of an over-limit body read and dropped while waiting for the request to end, after which the
    /// connection is closed instead of answered. MHD 0.9.75 refuses a response while the body is streaming
    /// (`MHD_queue_response` fails), so a 413 can only be sent after the last chunk.
    static let overflowAllowance = 64 * 1024

    let router: Router
    let configuration: ServerConfiguration
    let state = Mutex(State())
    /// Requests whose context MHD still holds; returns to 0 when every request has been completed or closed.
    let openExchanges = Atomic<Int>(0)
    /// Responses stored by handlers that MHD has not finished sending; shutdown waits for them (within its grace
    /// period), since `MHD_stop_daemon` drops connections whatever they still have to send.
    let unsentResponses = Atomic<Int>(0)
    /// Read by MHD's accept policy for every new connection, so it is an atomic rather than part of `state`.
    let acceptsConnections = Atomic<Bool>(true)
    /// Per-client connection counts, and the deadlines for request heads and bodies.
    let watch: ConnectionWatch
    /// Read once: a router without immediate responders skips the fast path entirely.
    let hasImmediateResponders: Bool
    let requestIDs = RequestIDs()

    /// A socket bound before the server was built; nil binds the configured address at start.
    let listener: Listener?

    init(configuration: ServerConfiguration, router: Router, listener: Listener? = nil) {
        self.configuration = configuration
        self.router = router
        self.listener = listener
        watch = ConnectionWatch(configuration: configuration)
        hasImmediateResponders = router.hasImmediateResponders
    }

    var inFlightCount: Int { state.withLock { $0.suspended.count } }

    /// Suspends `connection` and starts the handler task; returns false (the caller answers 503) once stopped.
    func dispatch(_ request: Request, exchange: Exchange, connection: OpaquePointer) -> Bool {
        var request = request
        request.id = requestIDs.id(for: request)
        let accepted = state.withLock { state in
            guard state.phase == .serving || state.phase == .draining else { return false }
            state.suspended[ObjectIdentifier(exchange)] = exchange
            exchange.state.withLock { $0.connection = ConnectionHandle(pointer: connection) }
            MHD_suspend_connection(connection)
            return true
        }
        guard accepted else { return false }
        let (router, observer) = (self.router, configuration.observer)
        let task = Task { [request] in
            let started = ContinuousClock.now
            var response = await LogContext.$requestID.withValue(request.id) { await router.respond(to: request) }
            response.headers["X-Request-Id"] = request.id
            if let observer {
                let elapsed = ContinuousClock.now - started
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                observer.responded(
                    group: router.groupPrefix(for: request.path), method: request.method, path: request.path, status: response.status.code,
                    seconds: seconds)
            }
            // The handler is done with its body: a temporary file goes now, before the response is even sent.
            exchange.releaseBody()
            self.complete(exchange, with: response)
        }
        exchange.attach(task)
        return true
    }

    /// Stores the handler's response and resumes the connection; MHD then calls the access handler, which queues
    /// it. Does nothing if shutdown already gave up on this exchange.
    func complete(_ exchange: Exchange, with response: Response) {
        state.withLock { state in
            guard state.suspended.removeValue(forKey: ObjectIdentifier(exchange)) != nil else { return }
            var response = response
            if state.phase != .serving {
                response.headers["Connection"] = "close"
            }
            let connection = exchange.state.withLock { exchangeState in
                exchangeState.response = response
                exchangeState.awaitsSend = true
                return exchangeState.connection
            }
            unsentResponses.add(1, ordering: .relaxed)
            if let connection {
                MHD_resume_connection(connection.pointer)
            }
        }
    }

    /// Resumes every suspended connection without a response and cancels its handler.
    func abandonSuspended() {
        let abandoned = state.withLock { state in
            state.phase = .stopped
            let exchanges = Array(state.suspended.values)
            state.suspended.removeAll()
            for exchange in exchanges {
                if let connection = exchange.state.withLock({ $0.connection }) {
                    MHD_resume_connection(connection.pointer)
                }
            }
            return exchanges
        }
        for exchange in abandoned {
            exchange.abandon()
        }
    }
}

extension ServerCore {
    /// Stamps an answer given outside a handler (an early refusal) with a fresh request id, and tells
    /// the observer of it as taking no time: it was answered on the server thread, without a task, in microseconds.
    /// `render` runs with the id as the log context, so an error page it renders can show the id.
    func stamped(method: HTTPMethod, target: String, _ render: () -> Response) -> Response {
        let id = requestIDs.next()
        var response = LogContext.$requestID.withValue(id) { render() }
        response.headers["X-Request-Id"] = id
        if configuration.observer != nil { observe(method: method, path: Request.split(target: target).path, status: response.status) }
        return response
    }

    /// Tells the observer of an answer made on the server thread (in no measurable time); `group` when the caller
    /// has already found the route group, so it is not looked up again.
    func observe(method: HTTPMethod, path: String, status: HTTPStatus, group: String? = nil) {
        configuration.observer?.responded(
            group: group ?? router.groupPrefix(for: path), method: method, path: path, status: status.code, seconds: 0)
    }
}
