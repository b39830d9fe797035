import CMicroHTTPD
import Foundation
import Synchronization
import WebAddresses

/// The access-handler side of the bridge: runs on MHD worker threads, never blocks, never awaits.
extension ServerCore {
    /// The headers an immediate responder sees: what a cache keys on, and a photo's conditions and range.
    static let immediateHeaders = ["Cookie", "Host", "X-Forwarded-Host", "X-Forwarded-Proto", "If-None-Match", "Range", "If-Range"]

    private enum Step {
        case proceed
        case close
        case send(Response)
        case reject(HTTPStatus)
        case refuse(HTTPError, RequestHead)
        case run
    }

    /// MHD calls this once after the headers, once per body chunk, once when the request is complete, and once
    /// more after each resume. Queueing only happens on the last two kinds of call (or for an early refusal), so
    /// keep-alive stays on for normal requests.
    func handleAccess(
        connection: OpaquePointer,
        method: UnsafePointer<CChar>,
        uploadData: UnsafePointer<CChar>?,
        uploadSize: UnsafeMutablePointer<Int>,
        exchange: Exchange
    ) -> MHD_Result {
        let chunk = uploadSize.pointee
        let step: Step = exchange.state.withLock { state in
            switch state.phase {
            case .new:
                return begin(&state, exchange, connection, method: method)
            case .receiving:
                guard chunk > 0 else {
                    state.file?.finishWriting()
                    state.watched?.bodyEnded()
                    state.watched = nil
                    state.phase = .running
                    return .run
                }
                guard let uploadData else { return .close }
                uploadSize.pointee = 0
                state.watched?.bodyReceived(chunk)
                let bytes = UnsafeRawBufferPointer(start: uploadData, count: chunk)
                guard state.received + chunk <= state.limit else {
                    discard(&state, answering: .payloadTooLarge, alreadyDropped: chunk)
                    return .proceed
                }
                state.received += chunk
                if let file = state.file {
                    if let failure = file.append(bytes) {
                        ServerLog.error("request body not stored: \(failure)")
                        // The body was within its limit, so the rest of it (at most the limit) is read and dropped:
                        // the person gets the page saying the server is full, not a broken connection.
                        discard(
                            &state, answering: failure.code == .noSpace ? .insufficientStorage : .internalServerError,
                            allowance: state.limit - state.received + Self.overflowAllowance)
                    }
                    return .proceed
                }
                if state.body.isEmpty, let declared = contentLength(of: connection) {
                    state.body.reserveCapacity(min(declared, state.limit))
                }
                state.body.append(contentsOf: bytes)
                return .proceed
            case .discarding:
                guard chunk > 0 else {
                    state.phase = .finished
                    return .reject(state.refusal ?? .payloadTooLarge)
                }
                uploadSize.pointee = 0
                state.watched?.bodyReceived(chunk)
                state.discarded += chunk
                return state.discarded > state.discardAllowance ? .close : .proceed
            case .running:
                state.phase = .finished
                guard let response = state.response else { return .reject(.serviceUnavailable) }
                state.response = nil
                return .send(response)
            case .finished:
                return .close
            }
        }

        switch step {
        case .proceed:
            return .YES
        case .close:
            return .NO
        case .send(let response):
            return MHDResponse.queue(response, on: connection, defaults: configuration.responseHeaders)
        case .reject(let status):
            return reject(status, exchange, connection)
        case .refuse(let error, let head):
            var response = stamped(method: head.method, target: exchange.target) {
                router.errorResponse(error, for: Request(head))
            }
            response.headers["Connection"] = "close"
            return MHDResponse.queue(response, on: connection, defaults: configuration.responseHeaders)
        case .run:
            let (method, bytes, file) = exchange.state.withLock { state in
                defer { state.body = [] }
                return (state.method, state.body, state.file)
            }
            if hasImmediateResponders, file == nil, bytes.isEmpty {
                // The fast path sees only what a cache can key on: method, target, cookies and the names the
                // request was sent to. Building every header as Swift strings is left to requests that go on to
                // a handler.
                var headers = HTTPHeaders()
                for name in Self.immediateHeaders {
                    if let value = MHD_lookup_connection_value(connection, .HEADER_KIND, name) {
                        headers.add(name, String(cString: value))
                    }
                }
                // The peer address only where a proxy is trusted, so that a forwarded name means what it means on the
                // full path; otherwise none, and no proxy either (and no retain of the configured list).
                let proxies = configuration.trustedProxies
                let peer = proxies.ranges.isEmpty ? nil : remoteAddress(of: connection)
                let light = Request(
                    method: method, target: exchange.target, headers: headers, body: .bytes([]), remoteAddress: peer,
                    trustedProxies: peer == nil ? .nobody : proxies)
                if let (prepared, group) = router.immediateResponse(to: light) {
                    exchange.state.withLock { $0.phase = .finished }
                    observe(method: method, path: light.path, status: prepared.response.status, group: group)
                    return MHDResponse.queue(prepared, on: connection, defaults: configuration.responseHeaders)
                }
            }
            let body: BodyContent =
                file.map { .file(BodyFile(path: $0.path, offset: 0, count: $0.count, owner: $0)) } ?? .bytes(bytes)
            let request = request(exchange, connection, method: method, body: body)
            guard dispatch(request, exchange: exchange, connection: connection) else {
                exchange.state.withLock { $0.phase = .finished }
                return reject(.serviceUnavailable, exchange, connection)
            }
            return .YES
        }
    }

    /// The first call, once the head is in: the body's limit, storage and admission, before any body byte is read.
    private func begin(
        _ state: inout Exchange.State, _ exchange: Exchange, _ connection: OpaquePointer, method: UnsafePointer<CChar>
    ) -> Step {
        let watched = watch.headComplete(connection)
        state.method = HTTPMethod(String(cString: method))
        let declaredLength = contentLength(of: connection)
        let chunked = MHD_lookup_connection_value(connection, .HEADER_KIND, "Transfer-Encoding") != nil
        // A GET or HEAD that declares no body needs no route lookup for its limit: the default bounds anything it
        // might still send. This keeps route matching off the hot path of page views.
        if (state.method == .get || state.method == .head) && declaredLength == nil && !chunked {
            state.limit = router.defaultBodyLimit
            state.phase = .receiving
            return .proceed
        }
        if let refusal = framingRefusal(connection, declaredLength: declaredLength) {
            state.phase = .finished
            return .reject(refusal)
        }
        let (path, query) = Request.split(target: exchange.target)
        let options = router.options(method: state.method, path: path)
        state.limit = options.limit
        if let admission = options.admission {
            let head = RequestHead(
                method: state.method, path: path, query: query, headers: headers(of: connection),
                remoteAddress: remoteAddress(of: connection), trustedProxies: configuration.trustedProxies)
            if let refusal = admission(head) {
                state.phase = .finished
                return .refuse(refusal, head)
            }
        }
        if let declared = declaredLength, declared > state.limit {
            state.phase = .finished
            return .reject(.payloadTooLarge)
        }
        if case .temporaryFile(let directory) = options.storage {
            do {
                state.file = try TemporaryBody.create(in: directory)
            } catch {
                ServerLog.error("request body not stored: \(error)")
                state.phase = .finished
                return .reject(error.code == .noSpace ? .insufficientStorage : .internalServerError)
            }
        }
        if chunked || (declaredLength ?? 0) > 0 {
            watched?.bodyStarted()
            state.watched = watched
        }
        state.phase = .receiving
        return .proceed
    }

    /// Stops keeping the body: what arrived so far is dropped (its file deleted), the rest is read and dropped up to
    /// an allowance, and `status` is answered once it ends.
    private func discard(
        _ state: inout Exchange.State, answering status: HTTPStatus, alreadyDropped: Int = 0, allowance: Int = ServerCore.overflowAllowance
    ) {
        state.discardAllowance = allowance
        state.body = []
        state.file?.remove()
        state.file = nil
        state.refusal = status
        state.discarded = alreadyDropped
        state.phase = .discarding
    }

    /// Answers with an error and closes, since the rest of the request may still be unread.
    private func reject(_ status: HTTPStatus, _ exchange: Exchange, _ connection: OpaquePointer) -> MHD_Result {
        let method = exchange.state.withLock { $0.method }
        let request = request(exchange, connection, method: method, body: .bytes([]))
        var response = stamped(method: method, target: exchange.target) { router.errorResponse(HTTPError(status), for: request) }
        response.headers["Connection"] = "close"
        return MHDResponse.queue(response, on: connection, defaults: configuration.responseHeaders)
    }

    private func request(_ exchange: Exchange, _ connection: OpaquePointer, method: HTTPMethod, body: BodyContent) -> Request {
        Request(
            method: method,
            target: exchange.target,
            headers: headers(of: connection),
            body: body,
            remoteAddress: remoteAddress(of: connection),
            trustedProxies: configuration.trustedProxies
        )
    }

    /// Why the body's framing is refused, if it is (RFC 9112 §6.1, §6.3): ambiguous framing (two Content-Lengths,
    /// or one beside Transfer-Encoding) is how requests are smuggled past a proxy, and a transfer coding other than
    /// chunked leaves no way to find the body's end.
    private func framingRefusal(_ connection: OpaquePointer, declaredLength: Int?) -> HTTPStatus? {
        if let coding = MHD_lookup_connection_value(connection, .HEADER_KIND, "Transfer-Encoding") {
            guard declaredLength == nil else { return .badRequest }
            return strcasecmp(coding, "chunked") == 0 ? nil : HTTPStatus(code: 501)
        }
        guard declaredLength != nil else { return nil }
        var count = 0
        _ = MHD_get_connection_values(
            connection, .HEADER_KIND,
            { context, _, key, _ in
                if let context, let key, strcasecmp(key, "Content-Length") == 0 {
                    context.assumingMemoryBound(to: Int.self).pointee += 1
                }
                return .YES
            }, &count)
        return count == 1 ? nil : .badRequest
    }

    private func contentLength(of connection: OpaquePointer) -> Int? {
        guard let text = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length") else {
            return nil
        }
        // MHD already rejected malformed lengths; one that overflows Int is simply too large.
        return Int(String(cString: text)) ?? Int.max
    }

    private func headers(of connection: OpaquePointer) -> HTTPHeaders {
        var headers = HTTPHeaders()
        withUnsafeMutablePointer(to: &headers) { pointer in
            _ = MHD_get_connection_values(
                connection, .HEADER_KIND,
                { context, _, key, value in
                    guard let context, let key else { return .YES }
                    let headers = context.assumingMemoryBound(to: HTTPHeaders.self)
                    headers.pointee.add(String(cString: key), value.map { String(cString: $0) } ?? "")
                    return .YES
                }, pointer)
        }
        return headers
    }

    private func remoteAddress(of connection: OpaquePointer) -> String? {
        cmhd_connection_sockaddr(connection).flatMap { IPAddress($0) }?.description
    }
}
