import Foundation

/// A blocking TCP client for exact wire-level checks that URLSession hides (framing, early close, keep-alive).
/// Use it only inside `RawConnection.run`, which keeps blocking calls off Swift's cooperative threads.
final class RawConnection {
    private let fd: Int32
    /// Bytes received past the end of the last response read (pipelined responses can share one read).
    private var pending: [UInt8] = []

    /// Runs `body` on a dedicated thread, so a blocked socket call cannot starve the server's handler tasks.
    static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try body() }) }
            thread.start()
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// - Parameter source: the local address to connect from (any 127.x.y.z works on Linux loopback), so one
    ///   machine can play several clients.
    init(port: UInt16, host: String = "127.0.0.1", source: String? = nil, receiveTimeout: Double = 10) throws {
        // `fd` is assigned only on success: a throwing init that had set every property would also run deinit,
        // closing the descriptor twice, and the second close could hit a socket another test just opened.
        let family = host.contains(":") ? AF_INET6 : AF_INET
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket() failed") }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, source, &local.sin_addr)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                let error = errno
                close(descriptor)
                throw Failure(description: "bind(\(source)) failed: \(error)")
            }
        }
        let connected: Int32
        if family == AF_INET6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        guard connected == 0 else {
            let error = errno
            close(descriptor)
            throw Failure(description: "connect() failed: \(error)")
        }
        var timeout = timeval(
            tv_sec: Int(receiveTimeout), tv_usec: Int(receiveTimeout.truncatingRemainder(dividingBy: 1) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        fd = descriptor
    }

    deinit {
        close(fd)
    }

    /// Sends everything; returns false once the peer has closed or reset the connection.
    @discardableResult
    func send(_ text: String) -> Bool {
        send(Array(text.utf8))
    }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    enum End: Equatable {
        /// The peer closed the connection (FIN).
        case closed
        /// The peer reset the connection.
        case reset
        /// Nothing arrived within the receive timeout; the connection is still open.
        case timedOut
    }

    /// Reads until the peer closes or the receive timeout passes.
    func readUntilEnd() -> (bytes: [UInt8], end: End) {
        var collected = pending
        pending = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                collected.append(contentsOf: buffer[0..<count])
            } else if count == 0 {
                return (collected, .closed)
            } else if errno == EINTR {
                continue
            } else {
                return (collected, errno == EAGAIN || errno == EWOULDBLOCK ? .timedOut : .reset)
            }
        }
    }

    /// Reads one response: the head, then exactly `Content-Length` body bytes (none for a HEAD request).
    func readResponse(bodyExpected: Bool = true) throws -> RawResponse {
        var collected = pending
        pending = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let head = RawResponse(parsingHeadOf: collected) {
                let length = bodyExpected ? head.contentLength ?? 0 : 0
                while collected.count < head.headLength + length {
                    let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                    guard count > 0 else { throw Failure(description: "connection ended inside the body") }
                    collected.append(contentsOf: buffer[0..<count])
                }
                pending = Array(collected[(head.headLength + length)...])
                return head.with(body: Array(collected[head.headLength..<(head.headLength + length)]))
            }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else {
                throw Failure(description: "connection ended before a full response head (\(collected.count) bytes)")
            }
            collected.append(contentsOf: buffer[0..<count])
        }
    }
}

/// A parsed HTTP/1.1 response head (and body, once read).
struct RawResponse: Sendable {
    let status: Int
    let headers: [(name: String, value: String)]
    let headLength: Int
    var body: [UInt8] = []

    init?(parsingHeadOf bytes: [UInt8]) {
        let terminator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: terminator) }) else { return nil }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ")
        guard statusParts.count >= 2, let status = Int(statusParts[1]) else { return nil }
        self.status = status
        self.headers = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        self.headLength = end + terminator.count
    }

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    var contentLength: Int? { header("Content-Length").flatMap { Int($0) } }

    func with(body: [UInt8]) -> RawResponse {
        var copy = self
        copy.body = body
        return copy
    }
}
