import Synchronization

/// Request ids: short, unique within a run of the server, and different across runs, so a person can quote the one
/// on an error page ("Error id: 3fa2000017") and it is found in the log. Sixteen random bits name the run, a counter
/// the request; twelve hex digits in all. A trusted proxy's own `X-Request-Id` is kept instead, so one id follows
/// the request through both logs.
final class RequestIDs: Sendable {
    private let prefix: UInt64
    private let counter = Atomic<UInt64>(0)

    init() {
        prefix = UInt64.random(in: 0...0xFFFF) << 32
    }

    /// The next id.
    func next() -> String {
        let n = counter.wrappingAdd(1, ordering: .relaxed).newValue & 0xFFFF_FFFF
        return Self.hex(prefix | n)
    }

    /// The id for `request`: what a trusted proxy sent when it is short and plain, else a new one.
    func id(for request: Request) -> String {
        if request.peerIsTrustedProxy, let sent = request.headers["X-Request-Id"], Self.isAcceptable(sent) { return sent }
        return next()
    }

    /// 1 to 64 letters, digits, `-` and `_`: nothing that could break a log line or a header.
    static func isAcceptable(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count)
            && id.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x5F
            }
    }

    static func hex(_ value: UInt64) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8](repeating: 0, count: 12)
        var v = value
        for i in (0..<12).reversed() {
            out[i] = digits[Int(v & 0xF)]
            v >>= 4
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// Told of every answered request, for metrics: the route group that answered it (`""` is the root group), the
/// method, the path (to recognise a few fixed routes, never to label by), the status and how long the handler took.
public protocol RequestObserver: Sendable {
    func responded(group: String, method: HTTPMethod, path: String, status: Int, seconds: Double)
}
