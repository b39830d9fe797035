import CCurl
import Foundation
import WebAddresses

/// libcurl's process-wide setup, done once before the first handle: `curl_global_init` and the address filter
/// that every guarded socket goes through.
enum Curl {
    static let ready: Bool = ccurl_global_setup(addressFilter) == CURLE_OK

    private static let addressFilter: ccurl_address_filter = { context, family, bytes, _ in
        guard let context, let bytes else { return 0 }
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        let count = family == AF_INET6 ? 16 : 4
        guard let address = IPAddress(bytes: UnsafeBufferPointer(start: bytes, count: count)) else { return 0 }
        return transfer.mayConnect(to: address) ? 1 : 0
    }
}

extension Transfer {
    /// Sets every option of this transfer on a fresh (or freshly reset) easy handle.
    func configure(_ handle: UnsafeMutableRawPointer) throws(OutboundError) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        var codes: [CURLcode] = [
            ccurl_easy_setopt_pointer(handle, CURLOPT_CURLU, UnsafeRawPointer(url.handle)),
            ccurl_easy_setopt_pointer(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
            ccurl_easy_setopt_pointer(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
            ccurl_easy_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0),
            // No proxy from the environment: the address check would then only ever see the proxy's address.
            ccurl_easy_setopt_pointer(handle, CURLOPT_PROXY, ""),
            ccurl_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            ccurl_easy_setopt_long(handle, CURLOPT_FORBID_REUSE, keepsConnectionOpen ? 0 : 1),
            ccurl_easy_setopt_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(request.timeout)),
            ccurl_easy_setopt_long(
                handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(min(connectTimeout, request.timeout))),
            // Stops at once when the declared length is too large; the body sink catches the rest.
            ccurl_easy_setopt_off(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(maximumBodySize)),
            ccurl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer),
            ccurl_easy_set_body_sink(handle, Self.bodySink, context),
            ccurl_easy_set_header_sink(handle, Self.headerSink, context),
            ccurl_easy_guard_sockets(handle, context),
            ccurl_easy_setopt_pointer(handle, CURLOPT_HTTPHEADER, headerList),
        ]
        codes += setMethod(on: handle)
        if let failed = codes.first(where: { $0 != CURLE_OK }) {
            throw OutboundError(
                .invalidRequest, host: url.origin.urlHost, detail: String(cString: curl_easy_strerror(failed)))
        }
    }

    private func setMethod(on handle: UnsafeMutableRawPointer) -> [CURLcode] {
        let method = request.method.uppercased()
        if method == "HEAD" { return [ccurl_easy_setopt_long(handle, CURLOPT_NOBODY, 1)] }
        guard request.body != nil || method == "POST" else {
            return method == "GET" ? [] : [ccurl_easy_setopt_pointer(handle, CURLOPT_CUSTOMREQUEST, method)]
        }
        var codes: [CURLcode]
        switch request.body {
        case .file:
            let context = Unmanaged.passUnretained(self).toOpaque()
            codes = [
                ccurl_easy_setopt_long(handle, CURLOPT_POST, 1),
                ccurl_easy_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(bodyFile?.length ?? 0)),
                ccurl_easy_set_body_source(handle, Self.bodySource, Self.bodySeek, context),
            ]
        case .bytes(let body):
            codes = [ccurl_easy_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count))]
            // COPYPOSTFIELDS copies exactly POSTFIELDSIZE bytes (set first), so binary bodies survive.
            codes.append(
                body.isEmpty
                    ? ccurl_easy_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, "")
                    : body.withUnsafeBytes { ccurl_easy_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) })
        case nil:
            codes = [
                ccurl_easy_setopt_off(handle, CURLOPT_POSTFIELDSIZE_LARGE, 0),
                ccurl_easy_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, ""),
            ]
        }
        if method != "POST" { codes.append(ccurl_easy_setopt_pointer(handle, CURLOPT_CUSTOMREQUEST, method)) }
        return codes
    }

    private static let bodySource: curl_read_callback = { buffer, size, count, context in
        guard let context, let buffer else { return Int(CURL_READFUNC_ABORT) }
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        guard let read = transfer.readBody(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count), at: transfer.bodyOffset)
        else { return Int(CURL_READFUNC_ABORT) }
        transfer.bodyOffset += read
        return read
    }

    /// curl rewinds only to resend the body from the start (a connection that closed under a reused handle).
    private static let bodySeek: curl_seek_callback = { context, offset, origin in
        guard let context, origin == SEEK_SET, offset >= 0 else { return CURL_SEEKFUNC_CANTSEEK }
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        guard Int(offset) <= transfer.bodyFile?.length ?? 0 else { return CURL_SEEKFUNC_FAIL }
        transfer.bodyOffset = Int(offset)
        return CURL_SEEKFUNC_OK
    }

    /// At least 1 ms: curl reads 0 as "no timeout".
    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return max(1, Int(clamping: seconds) &* 1000 &+ Int(attoseconds / 1_000_000_000_000_000))
    }

    private static let bodySink: curl_write_callback = { buffer, size, count, context in
        guard let context else { return 0 }
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        // A short count makes curl abort the transfer with CURLE_WRITE_ERROR.
        return transfer.receiveBody(UnsafeRawBufferPointer(start: buffer, count: length)) ? length : 0
    }

    private static let headerSink: curl_write_callback = { buffer, size, count, context in
        guard let context else { return 0 }
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: buffer, count: size * count))
        return size * count
    }
}
