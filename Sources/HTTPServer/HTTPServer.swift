import CMicroHTTPD
import Dispatch
import Foundation
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd. Request bodies are collected in memory or streamed to a temporary file, as
/// the route chose, bounded by the route's limit and after its admission check; then the connection is suspended
/// while the router runs in a Swift task, so slow handlers never hold a server thread. Connections are limited per
/// client (trusted proxies exempt), request heads and bodies have deadlines, and forwarding headers are believed only
/// from trusted proxies (see `ServerConfiguration`).
public final class HTTPServer: Sendable {
    let core: ServerCore

    /// - Parameters:
    ///   - configuration: Address and limits.
    ///   - router: Answers every request.
    ///   - listener: A socket bound beforehand (bind first, then build what needs the port); nil binds the
    ///     configuration's address at `start()`.
    public init(configuration: ServerConfiguration, router: Router, listener: Listener? = nil) {
        core = ServerCore(configuration: configuration, router: router, listener: listener)
    }

    /// Binds the address and starts serving on background threads.
    /// - Throws: `ServerError` naming the address and cause, e.g. when the port is already in use.
    public func start() throws(ServerError) {
        try core.start()
    }

    /// Answers one request with the router, in the calling task and without a socket: what a connection's request
    /// gets once it has been read and admitted. Tests use it to watch a handler from inside (``FieldReads``).
    public func respond(to request: Request) async -> Response {
        await core.router.respond(to: request)
    }

    /// The bound port once started (the real one when the configuration asked for port 0), else 0.
    public var port: UInt16 {
        core.state.withLock { $0.port }
    }

    /// Stops accepting connections, lets running handlers finish within `shutdownGracePeriod` (their responses
    /// close the connection), drops the rest with their tasks cancelled, and stops the daemon.
    public func shutdown() async {
        await core.shutdown(gracePeriod: core.configuration.shutdownGracePeriod)
    }

    /// Waits for SIGINT or SIGTERM (or the calling task's cancellation), then shuts down and returns.
    public func runUntilSignal() async {
        await runUntilSignal([SIGINT, SIGTERM], onReady: {})
    }

    /// Waits for one of `signals`, then shuts down; `onReady` runs once they are all being watched.
    func runUntilSignal(_ signals: [Int32], onReady: () -> Void) async {
        let watched = StopSignals(signals)
        onReady()
        await watched.wait()
        await shutdown()
    }
}

/// Stop signals, watched from the moment this is made.
///
/// Make it before the server answers its first request: a supervisor or a script may send SIGTERM as soon as the
/// port answers, and a signal that arrives after its default action is ignored but before the dispatch source is
/// armed is lost, leaving a server that no longer stops (a benchmark hung on exactly that). A signal that arrives
/// before ``wait()`` is kept until it is called.
public final class StopSignals: Sendable {
    private let stream: AsyncStream<Int32>

    /// Starts watching SIGINT and SIGTERM.
    public convenience init() {
        self.init([SIGINT, SIGTERM])
    }

    /// Starts watching `signals`.
    init(_ signals: [Int32]) {
        stream = AsyncStream<Int32> { continuation in
            let sources = SignalSources(
                signals.map { number in
                    // The default action would end the process before the dispatch source sees the signal.
                    signal(number, SIG_IGN)
                    let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                    source.setEventHandler { continuation.yield(number) }
                    source.resume()
                    return source
                })
            continuation.onTermination = { _ in sources.cancel() }
        }
    }

    /// Returns at the first of the signals (at once if one came already), or when the calling task is cancelled.
    public func wait() async {
        for await number in stream {
            ServerLog.error("received signal \(number), shutting down")
            break
        }
    }
}

/// Keeps the signal sources alive until the stream ends; they are only cancelled after that.
private struct SignalSources: @unchecked Sendable {
    let sources: [any DispatchSourceSignal]

    init(_ sources: [any DispatchSourceSignal]) {
        self.sources = sources
    }

    func cancel() {
        for source in sources {
            source.cancel()
        }
    }
}
