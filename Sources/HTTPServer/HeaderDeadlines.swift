import CMicroHTTPD
import Dispatch
import Foundation
import Synchronization

/// Slow-loris defence. MHD's connection timeout counts inactivity only, so a client that sends one header byte
/// every few hundred milliseconds would keep its connection (and a slot of the connection limit) forever. Every
/// connection therefore gets a deadline for its next complete request head: `limit` after it opens or after its
/// previous request ends. A sweeper shuts down the socket of any connection past it; MHD then sees the client
/// gone and closes the connection itself.
final class HeaderDeadlines: Sendable {
    /// One open connection. MHD's socket context points at it, unretained: `watched` owns it until MHD reports
    /// the connection closed, which it does before closing the descriptor.
    final class Watched: Sendable {
        let fd: Int32
        /// Monotonic nanoseconds by which the current request head must be complete; 0 while none is awaited.
        let deadline: Atomic<UInt64>

        init(fd: Int32, deadline: UInt64) {
            self.fd = fd
            self.deadline = Atomic(deadline)
        }
    }

    let limit: Duration
    private let watched = Mutex<[ObjectIdentifier: Watched]>([:])
    private let timer = Mutex<SweepTimer?>(nil)

    init(limit: Duration) {
        self.limit = limit
    }

    static func now() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }

    private var limitNanoseconds: UInt64 {
        let (seconds, attoseconds) = limit.components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }

    /// MHD accepted a connection: its first request head is due within `limit`.
    func opened(_ connection: OpaquePointer, context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        let entry = Watched(fd: cmhd_connection_fd(connection), deadline: Self.now() + limitNanoseconds)
        watched.withLock { $0[ObjectIdentifier(entry)] = entry }
        context.pointee = Unmanaged.passUnretained(entry).toOpaque()
    }

    /// MHD is about to close the connection's socket; it must not be shut down after this.
    func closed(context: UnsafeMutablePointer<UnsafeMutableRawPointer?>) {
        guard let pointer = context.pointee else { return }
        context.pointee = nil
        let entry = Unmanaged<Watched>.fromOpaque(pointer).takeUnretainedValue()
        watched.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(entry)) }
    }

    /// A request head arrived in time; the handler's duration is not limited here.
    func headComplete(_ connection: OpaquePointer) {
        entry(of: connection)?.deadline.store(0, ordering: .relaxed)
    }

    /// A request ended; a kept-alive connection owes its next head within `limit`.
    func requestEnded(_ connection: OpaquePointer) {
        entry(of: connection)?.deadline.store(Self.now() + limitNanoseconds, ordering: .relaxed)
    }

    /// Shuts down every connection whose head is overdue at `now`; returns how many.
    @discardableResult
    func sweep(now: UInt64 = HeaderDeadlines.now()) -> Int {
        watched.withLock { watched in
            var cut = 0
            for entry in watched.values {
                let deadline = entry.deadline.load(ordering: .relaxed)
                guard deadline != 0, deadline < now else { continue }
                entry.deadline.store(0, ordering: .relaxed)
                // Under the lock: MHD reports the close (which takes the lock) before the descriptor is closed,
                // so this descriptor is still this connection's.
                shutdown(entry.fd, Int32(SHUT_RDWR))
                cut += 1
            }
            return cut
        }
    }

    /// Sweeps every quarter of the limit (between 50 ms and 1 s) until `stop()`.
    func start() {
        let interval = min(max(limit / 4, .milliseconds(50)), .seconds(1))
        let (seconds, attoseconds) = interval.components
        let milliseconds = Int(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
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
