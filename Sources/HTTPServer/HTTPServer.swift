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
        await waitForSignal(signals, onReady: onReady)
        await shutdown()
    }

    /// Returns when SIGINT or SIGTERM arrives, still serving: the caller stops in its own order (readiness off,
    /// work handed on, then ``shutdown()``).
    public func waitForStopSignal() async {
        await waitForSignal([SIGINT, SIGTERM], onReady: {})
    }

    func waitForSignal(_ signals: [Int32], onReady: () -> Void) async {
        let stream = AsyncStream<Int32> { continuation in
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
        onReady()
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
