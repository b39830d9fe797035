import Foundation
import Synchronization
import Testing

@testable import HTTPServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The parent of the live-server suites. They run one at a time: on a small shared machine, the 1,000-connection
/// test would otherwise starve the others and turn their timing checks into noise. In-process suites still run in
/// parallel with them.
@Suite(.serialized) struct LiveTests {}

/// A started server on 127.0.0.1 and an ephemeral URLSession pointed at it.
struct LiveServer: Sendable {
    let server: HTTPServer
    let session: URLSession

    var port: UInt16 { server.port }

    /// Starts `router` on a free port; `configure` adjusts the test defaults (short timeouts, small pool).
    static func start(_ router: Router, configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> LiveServer {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threadCount = 2
        configuration.connectionTimeout = 10
        configuration.shutdownGracePeriod = .seconds(2)
        configure(&configuration)
        let server = HTTPServer(configuration: configuration, router: router)
        try server.start()
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.httpMaximumConnectionsPerHost = 64
        sessionConfiguration.timeoutIntervalForRequest = 30
        return LiveServer(server: server, session: URLSession(configuration: sessionConfiguration))
    }

    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// Sends a request and returns the status, the response and the body.
    func fetch(_ path: String, method: String = "GET", body: Data? = nil) async throws -> (Int, HTTPURLResponse, Data) {
        var request = URLRequest(url: url(path))
        request.httpMethod = method
        let (data, response): (Data, URLResponse)
        if let body {
            (data, response) = try await session.upload(for: request, from: body)
        } else {
            (data, response) = try await session.data(for: request)
        }
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, http, data)
    }

    func stop() async {
        session.invalidateAndCancel()
        await server.shutdown()
    }
}

/// Counts events across tasks (handler runs, middleware order).
final class Recorder: Sendable {
    private let events = Mutex<[String]>([])

    func record(_ event: String) {
        events.withLock { $0.append(event) }
    }

    var all: [String] { events.withLock { $0 } }
    var count: Int { events.withLock { $0.count } }
}

/// A value shared between a test and its handlers.
final class Shared<Value: Sendable>: Sendable {
    private let value: Mutex<Value>

    init(_ value: Value) {
        self.value = Mutex(value)
    }

    func withLock<R>(_ body: (inout Value) -> R) -> R {
        value.withLock { body(&$0) }
    }
}
