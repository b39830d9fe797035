import Foundation

/// Listening address and the limits that protect the server from slow or greedy clients.
public struct ServerConfiguration: Sendable {
    /// The address to bind: a numeric IPv4 or IPv6 address, or a host name.
    public var host: String = "127.0.0.1"
    /// The port to bind; 0 picks any free port (read it from `HTTPServer.port`).
    public var port: UInt16 = 8080
    /// Worker threads polling connections. Handlers run on Swift tasks, never on these threads.
    public var threadCount: Int = max(2, ProcessInfo.processInfo.activeProcessorCount)
    /// Seconds of inactivity after which a connection is closed; also the most time a connection gets to deliver
    /// each complete request head (from opening, or from the end of its previous request), however steadily it
    /// trickles bytes (slow-loris). 0 sets neither limit.
    public var connectionTimeout: Int = 30
    /// The most connections open at once.
    public var connectionLimit: Int = 1024
    /// The most connections open at once from one client IP address; 0 sets no limit. Trusted proxies are exempt:
    /// behind one, every request comes from it, and the proxy limits its own clients. Connections past the limit
    /// are closed on arrival.
    public var perClientConnectionLimit: Int = 64
    /// The slowest a request body may arrive once `bodyRateGrace` has passed, in bytes per second: a body must
    /// have delivered `bodyMinimumRate × (elapsed − grace)` bytes at any moment, or its connection is closed. This
    /// keeps slow uploads from holding every connection (the inactivity timeout alone lets a byte a few seconds
    /// hold one for ever). 0 sets no minimum.
    public var bodyMinimumRate: Int = 8 * 1024
    /// How long a body may take before the minimum rate applies (a phone waking its radio, a slow start).
    public var bodyRateGrace: Duration = .seconds(10)
    /// Peers whose `X-Forwarded-For`, `X-Forwarded-Proto` and `X-Forwarded-Host` are believed (see
    /// `RequestHeadFields.clientAddress`); loopback by default, for a reverse proxy on the same machine.
    public var trustedProxies: TrustedProxies = .loopback
    /// Headers every response carries unless it sets its own, errors and fast-path answers included (the
    /// application's baseline security headers).
    public var responseHeaders: HTTPHeaders = [:]
    /// Memory per connection in bytes; it bounds the request header size (larger headers are refused).
    ///
    /// libmicrohttpd zeroes a connection's whole pool between two requests on it, so this is paid on every
    /// keep-alive request: 64 KiB made `memset` 7.5% of the signed-in story page's CPU (perf, BENCHMARKS.md).
    /// 32 KiB is libmicrohttpd's own default and as much header as nginx accepts by default (4 × 8 KiB).
    public var connectionMemoryLimit: Int = 32 * 1024
    /// How long `shutdown()` waits for running handlers before dropping their connections.
    public var shutdownGracePeriod: Duration = .seconds(10)
    /// Told of every answered request (metrics); nil for none.
    public var observer: (any RequestObserver)?
    /// Whether libmicrohttpd reports protocol errors (malformed requests, failed sends) on stderr.
    public var logsProtocolErrors: Bool = true

    /// The defaults above.
    public init() {}
}

/// Why the server could not start.
public struct ServerError: Error, Sendable, CustomStringConvertible {
    enum Code: Sendable {
        case addressInUse
        case bindFailed
        case unresolvableHost
        case daemonFailed
        case alreadyStarted
    }

    let code: Code
    /// A message naming the address and the cause.
    public let description: String

    init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }

    /// Whether another process (or server) already listens on the requested port.
    public var isAddressInUse: Bool { code == .addressInUse }
}
