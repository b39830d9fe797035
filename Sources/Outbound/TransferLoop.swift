import CCurl
import Foundation
import Synchronization
import WebAddresses

/// One dedicated thread driving a curl multi handle: every transfer of one `OutboundHTTP` runs here, however
/// many are in flight, so awaiting callers never block a Swift concurrency thread. The multi handle's connection
/// cache gives keep-alive reuse across transfers, and finished easy handles are kept for the next ones.
final class TransferLoop: @unchecked Sendable {
    private struct Inbox {
        var submitted: [Transfer] = []
        var cancellationRequested = false
        var stopping = false
        var threadStarted = false
    }

    /// CURLM*. Only `curl_multi_wakeup` is called on it from other threads, which libcurl allows.
    private let multi: UnsafeMutableRawPointer
    private let idleLimit: Int
    private let inbox = Mutex(Inbox())

    // Touched only on the loop thread (and by deinit, after it has ended).
    private var active: [UnsafeMutableRawPointer: Transfer] = [:]
    private var idle: [UnsafeMutableRawPointer] = []

    init?(idleHandles: Int, cachedConnections: Int) {
        guard Curl.ready, let multi = curl_multi_init() else { return nil }
        self.multi = multi
        idleLimit = idleHandles
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, cachedConnections)
    }

    deinit {
        for handle in idle { curl_easy_cleanup(handle) }
        curl_multi_cleanup(multi)
    }

    /// Queues a transfer; the thread starts with the first one.
    func submit(_ transfer: Transfer) {
        let startThread = inbox.withLock { inbox in
            inbox.submitted.append(transfer)
            defer { inbox.threadStarted = true }
            return !inbox.threadStarted
        }
        if startThread {
            // The thread keeps the loop alive until `stop()` lets it end.
            let thread = Thread { self.run() }
            thread.name = "outbound-http"
            thread.start()
        } else {
            curl_multi_wakeup(multi)
        }
    }

    /// Asks the loop to drop transfers whose caller was cancelled.
    func cancelSoon() {
        let started = inbox.withLock { inbox in
            inbox.cancellationRequested = true
            return inbox.threadStarted
        }
        if started { curl_multi_wakeup(multi) }
    }

    /// Ends the thread; transfers still queued or running finish as cancelled.
    func stop() {
        let started = inbox.withLock { inbox in
            inbox.stopping = true
            return inbox.threadStarted
        }
        if started { curl_multi_wakeup(multi) }
    }

    private func run() {
        var running: Int32 = 0
        var handle: UnsafeMutableRawPointer?
        var code = CURLE_OK
        while true {
            let (submitted, cancelling, stopping) = inbox.withLock { inbox in
                defer {
                    inbox.submitted = []
                    inbox.cancellationRequested = false
                }
                return (inbox.submitted, inbox.cancellationRequested, inbox.stopping)
            }
            if stopping {
                for transfer in submitted { transfer.finish(.failure(Self.cancelled(transfer))) }
                for (handle, transfer) in active { abort(handle, transfer) }
                return
            }
            for transfer in submitted { start(transfer) }
            if cancelling {
                for (handle, transfer) in active where transfer.cancelled.load(ordering: .relaxed) {
                    abort(handle, transfer)
                }
            }
            curl_multi_perform(multi, &running)
            while ccurl_multi_next_done(multi, &handle, &code) == 1, let done = handle {
                complete(done, code)
            }
            // Returns early on socket activity, on curl's own timers and on `curl_multi_wakeup`.
            curl_multi_poll(multi, nil, 0, 5_000, nil)
        }
    }

    private func start(_ transfer: Transfer) {
        guard !transfer.cancelled.load(ordering: .relaxed) else {
            transfer.finish(.failure(Self.cancelled(transfer)))
            return
        }
        guard let handle = idle.popLast() ?? curl_easy_init() else {
            let error = OutboundError(.connectionFailed, host: transfer.url.origin.urlHost, detail: "no curl handle")
            transfer.finish(.failure(error))
            return
        }
        do {
            try transfer.configure(handle)
        } catch {
            recycle(handle)
            transfer.finish(.failure(error))
            return
        }
        guard curl_multi_add_handle(multi, handle) == CURLM_OK else {
            recycle(handle)
            let error = OutboundError(.connectionFailed, host: transfer.url.origin.urlHost, detail: "curl refused the transfer")
            transfer.finish(.failure(error))
            return
        }
        active[handle] = transfer
    }

    private func complete(_ handle: UnsafeMutableRawPointer, _ code: CURLcode) {
        curl_multi_remove_handle(multi, handle)
        guard let transfer = active.removeValue(forKey: handle) else { return }
        var status = 0
        _ = ccurl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
        let outcome = transfer.outcome(code, status: status)
        recycle(handle)
        transfer.finish(outcome)
    }

    private func abort(_ handle: UnsafeMutableRawPointer, _ transfer: Transfer) {
        curl_multi_remove_handle(multi, handle)
        active.removeValue(forKey: handle)
        recycle(handle)
        transfer.finish(.failure(Self.cancelled(transfer)))
    }

    /// Clears every option (and with them the pointers into the finished transfer) and keeps the handle for
    /// the next transfer, up to the idle limit. Connections live in the multi handle's cache either way.
    private func recycle(_ handle: UnsafeMutableRawPointer) {
        curl_easy_reset(handle)
        if idle.count < idleLimit {
            idle.append(handle)
        } else {
            curl_easy_cleanup(handle)
        }
    }

    private static func cancelled(_ transfer: Transfer) -> OutboundError {
        OutboundError(.cancelled, host: transfer.url.origin.urlHost)
    }
}
