import CMicroHTTPD
import Dispatch
import Foundation
import Synchronization
import WebAddresses

/// What the server watches on every open connection, from libmicrohttpd's accept-policy and notify-connection
/// callbacks and a sweeper:
/// - Connections per client address, so one client cannot take every connection (trusted proxies are exempt), and
///   a client's fair share once the server is half full (`ConnectionCounts`).
/// - Slow-loris heads. MHD's connection timeout counts inactivity only, so a client that sends one header byte
///   every few hundred milliseconds would keep its connection for ever. Each connection gets a deadline for its next
///   complete request head: `headLimit` after it opens or after its previous request ends.
/// - Slow bodies: once `bodyGrace` has passed, a body must have delivered `bodyRate` bytes per second since it began.
/// The sweeper shuts down the socket of a connection past either deadline; MHD then sees the client gone and closes
/// the connection itself (which ends its request, so its temporary body file is removed).
final class ConnectionWatch: Sendable {
    /// One open connection. MHD's socket context points at it, unretained: `State.watched` owns it until MHD
    /// reports the connection closed, which it does before closing the descriptor.
    final class Watched: Sendable {
        let fd: Int32
        /// The client address counted against the per-client limit; nil when not counted (unknown, exempt, or no
        /// limit).
        let counted: IPAddress?
        /// Monotonic nanoseconds by which the current request head must be complete; 0 while none is awaited.
        let headDeadline: Atomic<UInt64>
        /// Monotonic nanoseconds when the current body began arriving; 0 while no body is being received.
        let bodyStart = Atomic<UInt64>(0)
        /// Body bytes received since `bodyStart`.
        let bodyBytes = Atomic<Int>(0)

        init(fd: Int32, counted: IPAddress?, headDeadline: UInt64) {
            self.fd = fd
            self.counted = counted
            self.headDeadline = Atomic(headDeadline)
        }

        /// A body begins arriving at `now`.
        func bodyStarted(now: UInt64 = ConnectionWatch.now()) {
            bodyBytes.store(0, ordering: .relaxed)
            bodyStart.store(now, ordering: .relaxed)
        }

        func bodyReceived(_ count: Int) {
            bodyBytes.add(count, ordering: .relaxed)
        }

        func bodyEnded() {
            bodyStart.store(0, ordering: .relaxed)
        }
    }

    private struct State {
        var watched: [ObjectIdentifier: Watched] = [:]
        var counts: ConnectionCounts
    }

    /// Nanoseconds for each request head; 0 for no head deadline.
    let headLimit: UInt64
    /// Bytes per second a body must keep up after `bodyGrace`; 0 for no minimum.
    let bodyRate: Int
    let bodyGrace: UInt64
    /// Connections per client address; 0 for no limit.
    let perClientLimit: Int
    let trustedProxies: TrustedProxies
    private let state: Mutex<State>
    private let timer = Mutex<SweepTimer?>(nil)

    init(configuration: ServerConfiguration) {
        headLimit = configuration.connectionTimeout > 0 ? UInt64(configuration.connectionTimeout) * 1_000_000_000 : 0
        bodyRate = max(0, configuration.bodyMinimumRate)
        bodyGrace = Self.nanoseconds(configuration.bodyRateGrace)
        perClientLimit = max(0, configuration.perClientConnectionLimit)
        trustedProxies = configuration.trustedProxies
        state = Mutex(State(counts: ConnectionCounts(total: max(0, configuration.connectionLimit), perClient: perClientLimit)))
    }

    static func now() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }

    /// The accept policy: whether a new connection from `address` fits under the per-client limit. The count
    /// itself moves in `opened` and `closed`, which MHD always calls in pairs; with a thread pool, connections
    /// accepted at the same moment on different threads can each pass, so the limit may be overshot by fewer than
    /// the pool's threads.
    func admits(_ address: IPAddress?) -> Bool {
        guard let address = countedAddress(address) else { return true }
        return state.withLock { $0.counts.admits(address) }
    }

    /// What a connection from `address` counts against: nothing for a trusted proxy (it limits its own clients),
    /// else the address's client block (an IPv6 client's whole /64).
    func countedAddress(_ address: IPAddress?) -> IPAddress? {
        guard perClientLimit > 0, let address, !trustedProxies.contains(address) else { return nil }
        return address.clientBlock
    }

    /// MHD accepted a connection: it counts against its client, and its first request head is due within the limit.
    func opened(_ connection: OpaquePointer, context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        let counted = countedAddress(cmhd_connection_sockaddr(connection).flatMap { IPAddress($0) })
        let entry = Watched(
            fd: cmhd_connection_fd(connection), counted: counted, headDeadline: headLimit > 0 ? Self.now() + headLimit : 0)
        state.withLock { state in
            state.watched[ObjectIdentifier(entry)] = entry
            state.counts.opened(counted)
        }
        context.pointee = Unmanaged.passUnretained(entry).toOpaque()
    }

    /// MHD is about to close the connection's socket; it must not be shut down after this.
    func closed(context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        guard let pointer = context.pointee else { return }
        context.pointee = nil
        let entry = Unmanaged<Watched>.fromOpaque(pointer).takeUnretainedValue()
        state.withLock { state in
            guard state.watched.removeValue(forKey: ObjectIdentifier(entry)) != nil else { return }
            state.counts.closed(entry.counted)
        }
    }

    /// A request head arrived in time; the handler's duration is not limited here. Returns the connection's entry,
    /// for the body's progress.
    func headComplete(_ connection: OpaquePointer) -> Watched? {
        let watched = entry(of: connection)
        watched?.headDeadline.store(0, ordering: .relaxed)
        return watched
    }

    /// A request ended; a kept-alive connection owes its next head within the limit.
    func requestEnded(_ connection: OpaquePointer) {
        guard let watched = entry(of: connection) else { return }
        watched.bodyEnded()
        if headLimit > 0 {
            watched.headDeadline.store(Self.now() + headLimit, ordering: .relaxed)
        }
    }

    /// Open connections counted against `address`'s client block, for tests.
    func connections(from address: IPAddress) -> Int {
        state.withLock { $0.counts.held(by: address.clientBlock) }
    }

    /// Whether a body that began at `start` is behind the minimum rate at `now` with `bytes` received: it may take
    /// the grace period plus one second per `bodyRate` bytes.
    func bodyIsTooSlow(start: UInt64, bytes: Int, now: UInt64) -> Bool {
        guard bodyRate > 0, start != 0, now > start else { return false }
        let earned =
            UInt64(max(0, bytes)) / UInt64(bodyRate) * 1_000_000_000
            + UInt64(max(0, bytes)) % UInt64(bodyRate) * 1_000_000_000 / UInt64(bodyRate)
        return now - start > bodyGrace &+ earned
    }

    /// Shuts down every connection whose head is overdue or whose body is too slow at `now`; returns how many.
    @discardableResult
    func sweep(now: UInt64 = ConnectionWatch.now()) -> Int {
        state.withLock { state in
            var cut = 0
            for entry in state.watched.values {
                let deadline = entry.headDeadline.load(ordering: .relaxed)
                let headOverdue = deadline != 0 && deadline < now
                let start = entry.bodyStart.load(ordering: .relaxed)
                let bodyTooSlow = bodyIsTooSlow(start: start, bytes: entry.bodyBytes.load(ordering: .relaxed), now: now)
                guard headOverdue || bodyTooSlow else { continue }
                entry.headDeadline.store(0, ordering: .relaxed)
                entry.bodyStart.store(0, ordering: .relaxed)
                // Under the lock: MHD reports the close (which takes the lock) before the descriptor is closed,
                // so this descriptor is still this connection's.
                shutdown(entry.fd, Int32(SHUT_RDWR))
                cut += 1
            }
            return cut
        }
    }

    /// Sweeps every quarter of the shortest limit (between 50 ms and 1 s) until `stop()`; does nothing without limits.
    func start() {
        let limits = [headLimit, bodyRate > 0 ? max(bodyGrace, 1_000_000_000) : 0].filter { $0 > 0 }
        guard let shortest = limits.min() else { return }
        let milliseconds = Int(min(max(shortest / 4 / 1_000_000, 50), 1000))
        let source = DispatchSource.makeTimerSource(queue: .global())
        source.schedule(deadline: .now() + .milliseconds(milliseconds), repeating: .milliseconds(milliseconds))
        source.setEventHandler { [weak self] in self?.sweep() }
        source.resume()
        timer.withLock { $0 = SweepTimer(source: source) }
    }

    func stop() {
        timer.withLock { timer in
            timer?.source.cancel()
            timer = nil
        }
    }

    private func entry(of connection: OpaquePointer) -> Watched? {
        guard let pointer = cmhd_connection_socket_context(connection) else { return nil }
        return Unmanaged<Watched>.fromOpaque(pointer).takeUnretainedValue()
    }
}

/// The dispatch timer source, which is not marked Sendable but is safe to cancel from any thread.
private struct SweepTimer: @unchecked Sendable {
    let source: any DispatchSourceTimer
}
