import CMicroHTTPD
import Foundation

/// A bound, listening socket: made before anything else, so the composition root knows the real port (port 0
/// picks one) before it builds what needs it, and hands it to the server that will serve on it.
public final class Listener: Sendable {
    let descriptor: Int32
    let family: Int32
    /// The address asked for, for messages.
    let address: String
    /// The port actually bound.
    public let port: UInt16

    /// Binds and listens on `host:port`.
    /// - Throws: `ServerError` naming the address and cause, e.g. when the port is already in use.
    public init(host: String, port: UInt16, backlog: Int = 1024) throws(ServerError) {
        address = "\(host):\(port)"
        var errorCode: Int32 = 0
        var family: Int32 = 0
        let fd = cmhd_listen(host, port, Int32(clamping: min(max(backlog, 128), 4096)), &errorCode, &family)
        guard fd >= 0 else {
            if fd == -2 {
                throw ServerError(.unresolvableHost, "Cannot listen on \(address): \(String(cString: gai_strerror(errorCode)))")
            }
            if errorCode == EADDRINUSE {
                throw ServerError(.addressInUse, "Cannot listen on \(address): the port is already in use")
            }
            throw ServerError(.bindFailed, "Cannot listen on \(address): \(String(cString: strerror(errorCode)))")
        }
        descriptor = fd
        self.family = family
        self.port = cmhd_socket_port(fd)
    }
}
