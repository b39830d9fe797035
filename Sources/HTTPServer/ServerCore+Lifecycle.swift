import CMicroHTTPD
import Foundation
import Synchronization
import WebAddresses

extension ServerCore {
    /// Binds the listening socket ourselves (for a precise error when the port is taken) and starts the daemon
    /// on it: epoll with an internal thread pool, suspend/resume for async handlers, and the configured limits.
    func start() throws(ServerError) {
        let claimed = state.withLock { state in
            guard state.phase == .idle else { return false }
            state.phase = .serving
            return true
        }
        guard claimed else {
            throw ServerError(.alreadyStarted, "The server was already started; a server cannot be restarted")
        }

        let listener: Listener
        if let bound = self.listener {
            listener = bound
        } else {
            do throws(ServerError) {
                listener = try Listener(host: configuration.host, port: configuration.port, backlog: configuration.connectionLimit)
            } catch {
                state.withLock { $0.phase = .idle }
                throw error
            }
        }
        let address = listener.address
        let fd = listener.descriptor
        let family = listener.family

        var flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if configuration.logsProtocolErrors {
            flags |= MHD_USE_ERROR_LOG.rawValue
        }
        if family == AF_INET6 {
            flags |= MHD_USE_IPv6.rawValue
        }
        var daemonConfig = cmhd_daemon_config(
            flags: flags,
            listen_fd: fd,
            thread_pool_size: UInt32(clamping: configuration.threadCount),
            connection_timeout: UInt32(clamping: configuration.connectionTimeout),
            connection_limit: UInt32(clamping: configuration.connectionLimit),
            connection_memory_limit: max(configuration.connectionMemoryLimit, 4096)
        )
        let context = Unmanaged.passRetained(self)
        let daemon = cmhd_start_daemon(
            &daemonConfig,
            { cls, address, _ in
                // Shutdown stops new connections here rather than with MHD_quiesce_daemon, which can abort the
                // process in 0.9.75 ("Failed to remove listen FD from epoll set": a race over the listen socket's
                // epoll registration in thread-pool mode, reproduced here in a start/quiesce stress loop). The
                // socket stays open until MHD_stop_daemon, and new connections are closed on arrival.
                guard let cls else { return .NO }
                let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
                guard core.acceptsConnections.load(ordering: .relaxed) else { return .NO }
                return core.watch.admits(address.flatMap { IPAddress($0) }) ? .YES : .NO
            },
            { cls, connection, _, method, _, uploadData, uploadSize, requestContext in
                guard let cls, let connection, let method, let uploadSize, let exchangePointer = requestContext?.pointee
                else { return .NO }
                let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
                let exchange = Unmanaged<Exchange>.fromOpaque(exchangePointer).takeUnretainedValue()
                return core.handleAccess(
                    connection: connection, method: method, uploadData: uploadData, uploadSize: uploadSize,
                    exchange: exchange)
            },
            { cls, connection, requestContext, _ in
                guard let cls, let requestContext, let exchangePointer = requestContext.pointee else { return }
                requestContext.pointee = nil
                let exchange = Unmanaged<Exchange>.fromOpaque(exchangePointer)
                let core = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue()
                // However the request ended (answered, client gone mid-body, shutdown), its body file goes now.
                if exchange.takeUnretainedValue().end() {
                    core.unsentResponses.subtract(1, ordering: .relaxed)
                }
                exchange.release()
                core.openExchanges.subtract(1, ordering: .relaxed)
                if let connection { core.watch.requestEnded(connection) }
            },
            { cls, uri, _ in
                // Called once per request with the raw target, before MHD decodes it; the exchange it returns
                // is this request's context until the completion callback above releases it.
                if let cls {
                    Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue().openExchanges.add(1, ordering: .relaxed)
                }
                let target = uri.map { String(cString: $0) } ?? "/"
                return Unmanaged.passRetained(Exchange(target: target)).toOpaque()
            },
            { cls, connection, socketContext, code in
                guard let cls, let connection, let socketContext else { return }
                let watch = Unmanaged<ServerCore>.fromOpaque(cls).takeUnretainedValue().watch
                if code == .CONNECTION_NOTIFY_STARTED {
                    watch.opened(connection, context: socketContext)
                } else if code == .CONNECTION_NOTIFY_CLOSED {
                    watch.closed(context: socketContext)
                }
            },
            context.toOpaque()
        )
        guard let daemon else {
            // MHD usually closes a listen socket it was given when it fails; close it only if it did not.
            if cmhd_fd_is_open(fd) != 0 {
                close(fd)
            }
            context.release()
            state.withLock { $0.phase = .idle }
            throw ServerError(.daemonFailed, "libmicrohttpd could not start a daemon on \(address)")
        }
        let port = cmhd_socket_port(fd)
        state.withLock { state in
            state.daemon = DaemonHandle(pointer: daemon)
            state.port = port
        }
        watch.start()
    }

    /// Stops accepting, waits up to `gracePeriod` for suspended handlers, resumes the rest, then stops the daemon
    /// (which also closes the listening socket).
    func shutdown(gracePeriod: Duration) async {
        let daemon: DaemonHandle? = state.withLock { state in
            guard state.phase == .serving, let daemon = state.daemon else { return nil }
            state.phase = .draining
            return daemon
        }
        guard let daemon else { return }
        acceptsConnections.store(false, ordering: .relaxed)

        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: gracePeriod)
        // Handlers still running, then responses still being sent: MHD_stop_daemon would cut both off.
        while inFlightCount > 0 || unsentResponses.load(ordering: .relaxed) > 0, clock.now < deadline,
            !Task.isCancelled
        {
            try? await Task.sleep(for: .milliseconds(5))
        }
        abandonSuspended()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                MHD_stop_daemon(daemon.pointer)
                done.resume()
            }
        }
        watch.stop()
        state.withLock { $0.daemon = nil }
        Unmanaged.passUnretained(self).release()
    }
}
