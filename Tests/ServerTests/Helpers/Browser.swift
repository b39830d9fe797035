import Foundation
import Synchronization
import TestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A minimal browser for tests: keeps cookies per name, never follows redirects, sends Origin on POSTs.
final class Browser: Sendable {
    let base: String
    private let jar = Mutex<[String: String]>([:])

    /// What POSTs send as Origin: the origin the browser thinks it is on (https behind a TLS proxy).
    let origin: String
    /// Plays the part of a TLS proxy in front of the server: the browser is on https, the proxy forwards over http
    /// with `X-Forwarded-Proto: https`.
    let behindTLSProxy: Bool

    /// The client address the (simulated) TLS proxy reports for this browser, in `X-Forwarded-For`.
    let forwardedFor: String?

    init(base: String, behindTLSProxy: Bool = false, forwardedFor: String? = nil) {
        self.base = base
        self.behindTLSProxy = behindTLSProxy
        self.forwardedFor = forwardedFor
        origin = behindTLSProxy ? base.replacingOccurrences(of: "http://", with: "https://") : base
    }

    struct Page {
        var status: Int
        var body: String
        var location: String?
        /// Present on 429 and 503 answers.
        var retryAfter: String? = nil
        /// The `X-Request-Id` the server gave the request.
        var requestID: String? = nil
        var contentType: String? = nil
    }

    func cookie(_ name: String) -> String? { jar.withLock { $0[name] } }

    func plant(_ name: String, _ value: String) { jar.withLock { $0[name] = value } }

    /// The raw Set-Cookie headers of the last response, for checking attributes.
    func lastSetCookies() -> [String] { lastCookies.withLock { $0 } }
    private let lastCookies = Mutex<[String]>([])

    func get(_ path: String) async throws -> Page {
        try await send(URLRequest(url: url(path)))
    }

    func post(_ path: String, form: [(String, String)]) async throws -> Page {
        var request = URLRequest(url: url(path))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(formEncoded(form).utf8)
        return try await send(request)
    }

    func postMultipart(
        _ path: String, fields: [(String, String)], file: (name: String, filename: String, type: String, bytes: [UInt8]),
        headers: [String: String] = [:]
    ) async throws -> Page {
        let boundary = "----test\(UUID().uuidString)"
        var body = Data()
        for (name, value) in fields {
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8))
        }
        body.append(
            Data(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.name)\"; filename=\"\(file.filename)\"\r\nContent-Type: \(file.type)\r\n\r\n"
                    .utf8))
        body.append(Data(file.bytes))
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        var request = URLRequest(url: url(path))
        request.httpMethod = "POST"
        request.setValue("multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        return try await send(request)
    }

    private func url(_ path: String) -> URL {
        // Links on the https origin reach the server through the (simulated) proxy, over http.
        let local = behindTLSProxy && path.hasPrefix(origin) ? base + path.dropFirst(origin.count) : path
        return URL(string: local.hasPrefix("http") ? local : base + local)!
    }

    private func send(_ original: URLRequest) async throws -> Page {
        var request = original
        let cookies = jar.withLock { $0.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }
        if !cookies.isEmpty { request.setValue(cookies, forHTTPHeaderField: "Cookie") }
        if request.httpMethod == "POST" { request.setValue(origin, forHTTPHeaderField: "Origin") }
        if behindTLSProxy { request.setValue("https", forHTTPHeaderField: "X-Forwarded-Proto") }
        if let forwardedFor { request.setValue(forwardedFor, forHTTPHeaderField: "X-Forwarded-For") }
        let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        lastCookies.withLock { $0 = Browser.setCookies(http) }
        for header in Browser.setCookies(http) {
            let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { continue }
            let name = String(pair[0]).trimmingCharacters(in: .whitespaces)
            let value = String(pair[1])
            jar.withLock { if value.isEmpty || header.contains("Max-Age=0") { $0[name] = nil } else { $0[name] = value } }
        }
        return Page(
            status: http.statusCode, body: String(decoding: data, as: UTF8.self), location: http.value(forHTTPHeaderField: "Location"),
            retryAfter: http.value(forHTTPHeaderField: "Retry-After"), requestID: http.value(forHTTPHeaderField: "X-Request-Id"),
            contentType: http.value(forHTTPHeaderField: "Content-Type"))
    }

    /// Every Set-Cookie header (Foundation folds repeated headers with commas).
    static func setCookies(_ response: HTTPURLResponse) -> [String] {
        guard let folded = response.value(forHTTPHeaderField: "Set-Cookie") else { return [] }
        // Split on commas that start a new cookie (name=), not those inside Expires dates.
        var result: [String] = []
        var current = ""
        for part in folded.components(separatedBy: ", ") {
            if part.contains("="), let eq = part.firstIndex(of: "="), !part[..<eq].contains(";"), !current.isEmpty,
                !part[..<eq].contains(" ")
            {
                result.append(current)
                current = part
            } else {
                current = current.isEmpty ? part : current + ", " + part
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }
}
