import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A network namespace of the test's own, joined to the host by a veth pair: `10.203.N.1/24` on the host side,
/// `10.203.N.2/24` inside, so a server in it is reached the way a phone on the Wi-Fi reaches a household box: by a
/// non-loopback address. Names carry this process's id, so parallel runs cannot collide, and namespaces left by a
/// run that died are removed by the next one.
final class NetworkNamespace {
    let name: String
    let hostInterface: String
    /// The server's address inside the namespace.
    let address: String
    let hostAddress: String
    private var removed = false

    static let prefix = "gs-deploy-"
    private static let made = Mutex(0)

    /// Makes the namespace and its link, or throws saying what privilege or tool is missing.
    init() throws {
        Self.removeStale()
        let count = Self.made.withLock { made in
            made += 1
            return made
        }
        let pid = getpid()
        let tag = "\(pid)-\(count)"
        name = Self.prefix + tag
        hostInterface = "gsh\(tag)"
        let inside = "gsn\(tag)"
        let subnet = try Self.freeSubnet(seed: Int(pid) &* 7 &+ count)
        hostAddress = "10.203.\(subnet).1"
        address = "10.203.\(subnet).2"
        do {
            try Tool.run(["ip", "netns", "add", name])
        } catch {
            throw DeploymentFailure(
                "the deployment suite needs to make a network namespace (root, or CAP_NET_ADMIN and CAP_SYS_ADMIN) "
                    + "and `ip` from iproute2; `ip netns add` said: \(error)")
        }
        do {
            try Tool.run(["ip", "link", "add", hostInterface, "type", "veth", "peer", "name", inside])
            try Tool.run(["ip", "link", "set", inside, "netns", name])
            try Tool.run(["ip", "addr", "add", hostAddress + "/24", "dev", hostInterface])
            try Tool.run(["ip", "link", "set", hostInterface, "up"])
            try Tool.run(["ip", "-n", name, "addr", "add", address + "/24", "dev", inside])
            try Tool.run(["ip", "-n", name, "link", "set", inside, "up"])
            try Tool.run(["ip", "-n", name, "link", "set", "lo", "up"])
        } catch {
            remove()
            throw DeploymentFailure("could not link the namespace to the host with a veth pair (veth module?): \(error)")
        }
    }

    /// The prefix that runs a command inside the namespace.
    var exec: [String] { ["/usr/bin/env", "ip", "netns", "exec", name] }

    /// Ends every process still in the namespace and deletes it; its veth pair goes with it. Safe to call twice.
    func remove() {
        guard !removed else { return }
        removed = true
        Self.delete(name, hostInterface: hostInterface)
    }

    private static func delete(_ namespace: String, hostInterface: String) {
        let pids = (try? Tool.run(["ip", "netns", "pids", namespace])) ?? ""
        for pid in pids.split(whereSeparator: \.isNewline).compactMap({ Int32($0) }) { kill(pid, SIGKILL) }
        _ = try? Tool.run(["ip", "netns", "del", namespace])
        _ = try? Tool.run(["ip", "link", "del", hostInterface])
    }

    /// Namespaces of suite runs whose process is gone (killed before its cleanup ran).
    static func removeStale() {
        let listed = (try? Tool.run(["ip", "netns", "list"])) ?? ""
        for line in listed.split(whereSeparator: \.isNewline) {
            let namespace = String(line.split(separator: " ").first ?? "")
            guard namespace.hasPrefix(prefix) else { continue }
            let tag = namespace.dropFirst(prefix.count)
            guard let pid = Int32(tag.split(separator: "-").first ?? ""), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else {
                continue
            }
            delete(namespace, hostInterface: "gsh\(tag)")
        }
    }

    /// A third octet for 10.203.N.0/24 that no interface of the host uses yet.
    private static func freeSubnet(seed: Int) throws -> Int {
        let used = (try? Tool.run(["ip", "-4", "-o", "addr", "show"])) ?? ""
        for step in 0..<200 {
            let candidate = 20 + (seed + step) % 200
            if !used.contains("10.203.\(candidate).") { return candidate }
        }
        throw DeploymentFailure("every 10.203.N.0/24 subnet the suite may use is taken on this host")
    }
}
