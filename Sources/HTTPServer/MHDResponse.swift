import CMicroHTTPD
import Foundation

/// Converts our `Response` to a libmicrohttpd response. Runs on the connection's worker thread.
enum MHDResponse {
    /// Headers libmicrohttpd computes itself; a handler's own value would contradict the framing.
    private static let managedHeaders: Set<String> = ["content-length", "date", "transfer-encoding"]

    /// Queues `response` on `connection`, returning MHD's verdict.
    /// - Parameter defaults: headers every response carries unless it sets its own (the server's baseline).
    static func queue(_ response: Response, on connection: OpaquePointer, defaults: HTTPHeaders = [:]) -> MHD_Result {
        var response = response
        guard let handle = make(&response, defaults: defaults) else {
            return .NO
        }
        let result = MHD_queue_response(connection, UInt32(clamping: response.status.code), handle)
        MHD_destroy_response(handle)
        return result
    }

    /// Queues a prepared response, building it first if no one has sent it yet.
    static func queue(_ prepared: PreparedResponse, on connection: OpaquePointer, defaults: HTTPHeaders) -> MHD_Result {
        guard let built = prepared.handle(defaults: defaults) else { return .NO }
        return MHD_queue_response(connection, UInt32(clamping: built.status.code), built.handle)
    }

    /// MHD's response for `response`, with `defaults` for the headers it does not set. A file that cannot be opened
    /// as a regular file becomes a plain 404 (and `response` is rewritten to match).
    static func make(_ response: inout Response, defaults: HTTPHeaders) -> OpaquePointer? {
        guard let handle = body(&response) else { return nil }
        for (name, value) in defaults where response.headers[name] == nil { response.headers[name] = value }
        for (name, value) in response.headers where !managedHeaders.contains(name.lowercased()) {
            guard isSafe(name), isSafe(value), MHD_add_response_header(handle, name, value) == .YES else {
                ServerLog.error("dropped invalid response header \(String(reflecting: name))")
                continue
            }
        }
        return handle
    }

    private static func body(_ response: inout Response) -> OpaquePointer? {
        switch response.body {
        case .empty:
            return MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
        case .bytes(let bytes):
            return bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(
                    buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .file(let path, let offset, let length):
            if let handle = openFile(path, offset: offset, length: length) {
                return handle
            }
            response = .text("Not Found", status: .notFound)
            return body(&response)
        }
    }

    private static func openFile(_ path: String, offset: Int64, length: Int64) -> OpaquePointer? {
        guard !path.contains("\0"), offset >= 0 else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, offset <= Int64(info.st_size) else {
            close(fd)
            return nil
        }
        // A file that shrank since `length` was taken must not promise bytes that no longer exist.
        let size = UInt64(max(0, min(length, Int64(info.st_size) - offset)))
        guard let handle = MHD_create_response_from_fd_at_offset64(size, fd, UInt64(offset)) else {
            close(fd)
            return nil
        }
        return handle  // MHD closes `fd` when the response is destroyed.
    }

    /// Header names and values must not smuggle line breaks (response splitting) or NUL bytes.
    private static func isSafe(_ text: String) -> Bool {
        !text.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
    }
}
