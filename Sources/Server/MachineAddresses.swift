import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The IP addresses of this machine's interfaces (getifaddrs), for telling a person which URLs other devices use.
struct MachineAddresses {
    struct Address: Equatable {
        var text: String
        var isIPv6: Bool
        var isLoopback: Bool
        /// How the address is written in a URL: IPv6 in brackets.
        var urlHost: String { isIPv6 ? "[\(text)]" : text }
    }

    /// Every configured address, IPv4 first; IPv6 link-local addresses are left out (they need a zone to be used).
    static func current() -> [Address] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0, let first else { return [] }
        defer { freeifaddrs(first) }
        var found: [Address] = []
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr else { continue }
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard getnameinfo(address, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if family == AF_INET6, text.lowercased().hasPrefix("fe80") { continue }
            let loopback = (entry.pointee.ifa_flags & UInt32(IFF_LOOPBACK)) != 0
            let candidate = Address(text: text, isIPv6: family == AF_INET6, isLoopback: loopback)
            if !found.contains(candidate) { found.append(candidate) }
        }
        return found.filter { !$0.isIPv6 } + found.filter(\.isIPv6)
    }
}
