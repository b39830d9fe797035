import CCurl
import Foundation
import Synchronization
import WebAddresses

/// One request in flight. Built on the caller's task (URL parsing, header list), then owned by the transfer
/// loop's thread: curl's callbacks write into it there, and it answers the caller from there exactly once.
final class Transfer: @unchecked Sendable {
    typealias Outcome = Result<OutboundResponse, OutboundError>

    let request: OutboundRequest
    let url: ParsedURL
    /// False for allowed origins: their connections skip the address check.
    let checksAddresses: Bool
    let maximumBodySize: Int
    let connectTimeout: Duration
    /// False closes the connection once the answer is in (CURLOPT_FORBID_REUSE).
    let keepsConnectionOpen: Bool
    /// Set by the caller's cancellation handler, read by the loop.
    let cancelled = Atomic<Bool>(false)
    var continuation: CheckedContinuation<Outcome, Never>?

    /// The request's header lines, owned here and handed to curl for the transfer.
    let headerList: UnsafeMutablePointer<curl_slist>?
    /// CURLOPT_ERRORBUFFER: curl's message for a failed transfer.
    let errorBuffer: UnsafeMutablePointer<CChar>
    /// A `.file` body: its descriptor, opened here so a missing file fails the call, and its length when opened.
    let bodyFile: (fd: Int32, length: Int)?

    // Written by curl's callbacks during the transfer.
    var headers = OutboundHeaders()
    var body = Data()
    var overflowed = false
    /// How far curl has read a file body.
    var bodyOffset = 0
    var refusal: (address: IPAddress, category: AddressCategory)?

    init(
        _ request: OutboundRequest, policy: AddressPolicy, maximumBodySize: Int, connectTimeout: Duration,
        keepsConnectionOpen: Bool = true
    )
        throws(OutboundError)
    {
        let host = request.url.host ?? ""
        guard let url = ParsedURL(request.url.absoluteString) else {
            throw OutboundError(.invalidRequest, host: host, detail: "not an http or https URL")
        }
        guard !request.method.isEmpty, request.method.utf8.allSatisfy(Self.isTokenByte) else {
            throw OutboundError(.invalidRequest, host: url.origin.urlHost, detail: "bad method")
        }
        // A request body needs no "Expect: 100-continue" round trip to servers we talk to.
        var lines = request.headers["Expect"] == nil ? ["Expect:"] : []
        for field in request.headers {
            guard !field.name.isEmpty, field.name.utf8.allSatisfy(Self.isTokenByte),
                !field.value.utf8.contains(where: { $0 == 0 || $0 == 10 || $0 == 13 })
            else {
                throw OutboundError(.invalidRequest, host: url.origin.urlHost, detail: "bad header \(field.name)")
            }
            // "Name;" is curl's way of sending a header with an empty value ("Name:" would remove it).
            lines.append(field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)")
        }
        self.request = request
        self.url = url
        checksAddresses = !policy.allows(url.origin)
        self.maximumBodySize = maximumBodySize
        self.connectTimeout = connectTimeout
        self.keepsConnectionOpen = keepsConnectionOpen
        if case .file(let path) = request.body {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            var status = stat()
            guard fd >= 0, fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
                let reason = String(cString: strerror(errno))
                if fd >= 0 { close(fd) }
                throw OutboundError(.invalidRequest, host: url.origin.urlHost, detail: "cannot read the body file \(path): \(reason)")
            }
            bodyFile = (fd, Int(status.st_size))
        } else {
            bodyFile = nil
        }
        headerList = lines.reduce(nil) { list, line in curl_slist_append(list, line) }
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(to: 0)
    }

    deinit {
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
        if let bodyFile { close(bodyFile.fd) }
    }

    /// Answers the caller; later calls do nothing.
    func finish(_ outcome: Outcome) {
        let continuation = continuation
        self.continuation = nil
        continuation?.resume(returning: outcome)
    }

    /// The outcome once curl is done with the transfer (call before the handle is reset).
    func outcome(_ code: CURLcode, status: Int) -> Outcome {
        let host = url.origin.urlHost
        let detail = String(cString: errorBuffer)
        switch code {
        case CURLE_OK:
            return .success(OutboundResponse(status: status, headers: headers, body: body))
        case CURLE_COULDNT_CONNECT where refusal != nil:
            return .failure(OutboundError(.refused(address: refusal!.address, category: refusal!.category), host: host))
        case CURLE_OPERATION_TIMEDOUT:
            return .failure(OutboundError(.timeout, host: host, detail: detail))
        case CURLE_FILESIZE_EXCEEDED:
            return .failure(OutboundError(.bodyTooLarge(limit: maximumBodySize), host: host))
        case CURLE_WRITE_ERROR where overflowed:
            return .failure(OutboundError(.bodyTooLarge(limit: maximumBodySize), host: host))
        case CURLE_COULDNT_RESOLVE_HOST:
            return .failure(OutboundError(.unresolvable, host: host, detail: detail))
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return .failure(OutboundError(.invalidRequest, host: host, detail: detail))
        default:
            let text = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
            return .failure(OutboundError(.connectionFailed, host: host, detail: text))
        }
    }

    // MARK: curl callbacks (loop thread)

    /// Whether a connection may be opened to this address; remembers the first refusal for the error.
    func mayConnect(to address: IPAddress) -> Bool {
        guard checksAddresses, let category = AddressCategory.of(address) else { return true }
        if refusal == nil { refusal = (address, category) }
        return false
    }

    /// Fills `buffer` with the file body's bytes from `offset`: how many were read, 0 at its end, nil when the file
    /// could not be read or is shorter than when it was opened (curl then aborts the transfer).
    func readBody(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int? {
        guard let bodyFile, let base = buffer.baseAddress else { return nil }
        let wanted = min(buffer.count, bodyFile.length - offset)
        guard wanted > 0 else { return 0 }
        while true {
            let n = pread(bodyFile.fd, base, wanted, off_t(offset))
            if n < 0, errno == EINTR { continue }
            return n > 0 ? n : nil
        }
    }

    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard body.count + bytes.count <= maximumBodySize else {
            overflowed = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    /// One header line as curl delivers it: the status line of each response (interim ones too), fields,
    /// folded continuations, and the blank line that ends the head.
    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        var end = bytes.count
        while end > 0, bytes[end - 1] == 10 || bytes[end - 1] == 13 { end -= 1 }
        let line = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<end]), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            headers = OutboundHeaders()
        } else if line.first == " " || line.first == "\t" {
            headers.appendToLast(line.trimmingCharacters(in: .whitespaces))
        } else if let colon = line.firstIndex(of: ":") {
            headers.add(
                String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
    }

    /// RFC 9110 token characters, for methods and header names.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
