import CMicroHTTPD
import Foundation

/// The access-handler side of the bridge: runs on MHD worker threads, never blocks, never awaits.
extension ServerCore {
    private enum Step {
        case proceed
        case close
        case send(Response)
        case reject(HTTPStatus)
        case run
    }

    /// MHD calls this once after the headers, once per body chunk, once when the request is complete, and once
    /// more after each resume. Queueing only happens on the last two kinds of call (or for an early 413), so
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
                headerDeadlines?.headComplete(connection)
                state.method = HTTPMethod(String(cString: method))
                let declaredLength = contentLength(of: connection)
                // A GET or HEAD that declares no body needs no route lookup for its limit: the default bounds
                // anything it might still send. This keeps route matching off the hot path of page views.
                if (state.method == .get || state.method == .head) && declaredLength == nil
                    && MHD_lookup_connection_value(connection, .HEADER_KIND, "Transfer-Encoding") == nil
                {
                    state.limit = router.defaultBodyLimit
                } else {
                    if let refusal = framingRefusal(connection, declaredLength: declaredLength) {
                        state.phase = .finished
                        return .reject(refusal)
                    }
                    let path = Request.split(target: exchange.target).path
                    state.limit = router.bodyLimit(method: state.method, path: path)
                }
                if let declared = declaredLength, declared > state.limit {
                    state.phase = .finished
                    return .reject(.payloadTooLarge)
                }
                state.phase = .receiving
                return .proceed
            case .receiving:
                guard chunk > 0 else {
                    state.phase = .running
                    return .run
                }
                guard let uploadData else { return .close }
                uploadSize.pointee = 0
                guard state.body.count + chunk <= state.limit else {
                    state.body = []
                    state.phase = .discarding
                    state.discarded = chunk
                    return .proceed
                }
                if state.body.isEmpty, let declared = contentLength(of: connection) {
                    state.body.reserveCapacity(min(declared, state.limit))
                }
                state.body.append(contentsOf: UnsafeRawBufferPointer(start: uploadData, count: chunk))
                return .proceed
            case .discarding:
                guard chunk > 0 else {
                    state.phase = .finished
                    return .reject(.payloadTooLarge)
                }
                uploadSize.pointee = 0
                state.discarded += chunk
                return state.discarded > Self.overflowAllowance ? .close : .proceed
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
            return MHDResponse.queue(response, on: connection)
        case .reject(let status):
            return reject(status, exchange, connection)
        case .run:
            let body = exchange.state.withLock { state in
                defer { state.body = [] }
                return state.body
            }
            if let immediateResponder = router.immediateResponder, body.isEmpty {
                // The fast path sees only what a cache can key on: method, target and cookies. Building every
                // header as Swift strings is left to requests that go on to a handler.
                var headers = HTTPHeaders()
                if let cookie = MHD_lookup_connection_value(connection, .HEADER_KIND, "Cookie") {
                    headers.add("Cookie", String(cString: cookie))
                }
                let light = Request(
                    method: exchange.state.withLock { $0.method }, target: exchange.target, headers: headers, body: [],
                    remoteAddress: nil)
                if let immediate = immediateResponder(light) {
                    exchange.state.withLock { $0.phase = .finished }
                    return MHDResponse.queue(immediate, on: connection)
                }
            }
            let request = request(exchange, connection, body: body)
            guard dispatch(request, exchange: exchange, connection: connection) else {
                exchange.state.withLock { $0.phase = .finished }
                return reject(.serviceUnavailable, exchange, connection)
            }
            return .YES
        }
    }

    /// Answers with an error and closes, since the rest of the request may still be unread.
    private func reject(_ status: HTTPStatus, _ exchange: Exchange, _ connection: OpaquePointer) -> MHD_Result {
        var response = router.errorResponse(HTTPError(status), for: request(exchange, connection, body: []))
        response.headers["Connection"] = "close"
        return MHDResponse.queue(response, on: connection)
    }

    private func request(_ exchange: Exchange, _ connection: OpaquePointer, body: [UInt8]) -> Request {
        Request(
            method: exchange.state.withLock { $0.method },
            target: exchange.target,
            headers: headers(of: connection),
            body: body,
            remoteAddress: remoteAddress(of: connection)
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
        var buffer = [CChar](repeating: 0, count: 64)
        guard cmhd_connection_client_address(connection, &buffer, buffer.count) == 0 else { return nil }
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
