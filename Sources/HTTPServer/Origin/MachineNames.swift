import Clocks
import Foundation
import Synchronization
public import WebAddresses

#if canImport(Glibc)
    import Glibc
#endif

/// What this machine is called: its interface addresses and its host name. Injectable, so tests can fake a box at
/// 192.168.1.20 called `box`.
public struct MachineNames: Sendable {
    /// Every address of every interface (getifaddrs).
    public var addresses: @Sendable () -> [IPAddress]
    /// The host name (gethostname), or nil.
    public var hostName: @Sendable () -> String?

    public init(addresses: @escaping @Sendable () -> [IPAddress], hostName: @escaping @Sendable () -> String?) {
        self.addresses = addresses
        self.hostName = hostName
    }

    /// The real machine.
    public static let system = MachineNames(addresses: interfaceAddresses, hostName: systemHostName)

    /// The IPv4 and IPv6 addresses of every interface, up or not (an address is ours either way).
    static func interfaceAddresses() -> [IPAddress] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return [] }
        defer { freeifaddrs(first) }
        var found: [IPAddress] = []
        var cursor = first
        while let entry = cursor {
            if let address = entry.pointee.ifa_addr, let parsed = IPAddress(UnsafePointer(address)) {
                found.append(parsed)
            }
            cursor = entry.pointee.ifa_next
        }
        return found
    }

    static func systemHostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }
}

/// The machine's names as last read, re-read every `refreshInterval` (DHCP moves addresses), and at once (at most
/// once a second) when a request names an address not seen yet, so a new lease works without waiting.
final class MachineSnapshot: Sendable {
    struct Names: Sendable {
        var addresses: Set<IPAddress> = []
        /// Lowercase host name, its first label, and that label with `.local` (its mDNS name).
        var hostNames: Set<String> = []
        var readAt: Duration
    }

    let source: MachineNames
    let refreshInterval: Duration
    let clock: MonotonicClock
    private let names: Mutex<Names?> = Mutex(nil)

    init(source: MachineNames, refreshInterval: Duration, clock: MonotonicClock) {
        self.source = source
        self.refreshInterval = refreshInterval
        self.clock = clock
    }

    /// Whether `address` is one of this machine's (loopback always is).
    func isOwn(_ address: IPAddress) -> Bool {
        if address.isLoopback { return true }
        if current().addresses.contains(address) { return true }
        return current(maxAge: .seconds(1)).addresses.contains(address)
    }

    /// Whether `name` (lowercase) is this machine's host name, its first label, or that label with `.local`.
    func isOwn(name: String) -> Bool {
        current().hostNames.contains(name)
    }

    private func current(maxAge: Duration? = nil) -> Names {
        names.withLock { names in
            let instant = clock.now()
            if let names, instant - names.readAt < (maxAge ?? refreshInterval) { return names }
            let fresh = read(at: instant)
            names = fresh
            return fresh
        }
    }

    private func read(at instant: Duration) -> Names {
        var hostNames: Set<String> = []
        if let name = source.hostName()?.lowercased(), !name.isEmpty {
            hostNames.insert(name)
            if let label = name.split(separator: ".").first {
                hostNames.insert(String(label))
                hostNames.insert(label + ".local")
            }
        }
        return Names(addresses: Set(source.addresses()), hostNames: hostNames, readAt: instant)
    }
}
