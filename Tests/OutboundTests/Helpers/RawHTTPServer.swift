import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 (port 0) over raw sockets, one thread per connection, that counts the
/// connections it accepts: what keep-alive and refusal tests need to observe, and that no library server shows.
final class RawHTTPServer: Sendable {
    struct Received: Sendable {
        var method: String
        var target: String
        var headers: [String: String]
        var body: [UInt8]
    }

    /// What to answer a request with.
    struct Reply: Sendable {
        var status = 200
        var headers: [(String, String)] = []
        var body: [UInt8] = []
        /// Waited before answering.
        var delay: Duration = .zero
        /// Send the body without Content-Length and close the connection to end it.
        var closeDelimited = false
    }

    /// Shared with the connection threads.
    private final class Log: Sendable {
        let connections = Atomic<Int>(0)
        /// Connections whose client end was closed (or that failed).
        let ended = Atomic<Int>(0)
        let requests = Mutex<[Received]>([])
        /// Signalled when the accept thread has returned, so the listener is only closed after it.
        let acceptEnded = DispatchSemaphore(value: 0)
    }

    let port: UInt16
    private let listener: Int32
    private let log = Log()

    /// Connections accepted so far.
    var connections: Int { log.connections.load(ordering: .relaxed) }
    /// Connections accepted and since ended.
    var endedConnections: Int { log.ended.load(ordering: .relaxed) }
    var requests: [Received] { log.requests.withLock { $0 } }
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    init(_ respond: @escaping @Sendable (Received) -> Reply) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 64) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard fd >= 0, bound else { throw POSIXError(.EADDRNOTAVAIL) }
        listener = fd
        port = UInt16(bigEndian: address.sin_port)
        let log = log
        Thread {
            defer { log.acceptEnded.signal() }
            while true {
                let client = accept(fd, nil, nil)
                guard client >= 0 else { return }
                log.connections.add(1, ordering: .relaxed)
                Thread { Self.serve(client, respond: respond, log: log) }.start()
            }
        }.start()
    }

    /// Stops accepting; connections already open finish on their own. The descriptor is closed only once the
    /// accept thread is gone: closed earlier, it could be reused by the next server and accepted from here.
    func stop() {
        // A listening socket that is shut down fails every accept, whether the thread is already waiting in one.
        shutdown(listener, Int32(SHUT_RDWR))
        log.acceptEnded.wait()
        close(listener)
    }

    private static func serve(_ fd: Int32, respond: @Sendable (Received) -> Reply, log: Log) {
        defer {
            close(fd)
            log.ended.add(1, ordering: .relaxed)
        }
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            // Read a head, then the declared body.
            var headEnd: Int?
            while headEnd == nil {
                headEnd = pending.indices.dropLast(3).first { pending[$0...].starts(with: [13, 10, 13, 10]) }
                if headEnd != nil { break }
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return }
                pending += buffer[0..<count]
            }
            let lines = String(decoding: pending[..<headEnd!], as: UTF8.self).components(separatedBy: "\r\n")
            let requestLine = lines[0].split(separator: " ").map(String.init)
            var headers: [String: String] = [:]
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            let length = Int(headers["content-length"] ?? "0") ?? 0
            pending.removeFirst(headEnd! + 4)
            while pending.count < length {
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return }
                pending += buffer[0..<count]
            }
            let received = Received(
                method: requestLine.first ?? "", target: requestLine.count > 1 ? requestLine[1] : "", headers: headers,
                body: Array(pending.prefix(length)))
            pending.removeFirst(length)
            log.requests.withLock { $0.append(received) }

            let reply = respond(received)
            if reply.delay > .zero {
                let (seconds, attoseconds) = reply.delay.components
                Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
            }
            var head = "HTTP/1.1 \(reply.status) Status\r\n"
            for (name, value) in reply.headers { head += "\(name): \(value)\r\n" }
            head += reply.closeDelimited ? "Connection: close\r\n\r\n" : "Content-Length: \(reply.body.count)\r\n\r\n"
            guard write(fd, Array(head.utf8) + reply.body), !reply.closeDelimited else { return }
        }
    }

    private static func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }
}
