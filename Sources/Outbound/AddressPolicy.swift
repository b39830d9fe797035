public import Foundation
public import WebAddresses

/// Which addresses outbound fetches may connect to. By default only public unicast ones: loopback, private,
/// link-local, carrier-grade NAT, multicast and the other special-purpose blocks (see `AddressCategory.of`) are
/// refused, judged on the address actually connected to, after DNS. Origins named in the allowance (the configured
/// appview, the embedded backend on 127.0.0.1) may connect anywhere.
public struct AddressPolicy: Sendable, Hashable {
    /// Origins whose connections are not checked.
    public private(set) var allowedOrigins: Set<Origin>

    /// Public addresses only, except for `allowedOrigins`.
    public init(allowing allowedOrigins: Set<Origin> = []) {
        self.allowedOrigins = allowedOrigins
    }

    /// Public addresses only, with no exceptions: the policy for anything a visitor can influence.
    public static let publicOnly = AddressPolicy()

    /// This policy plus an allowance for the origin of each URL (URLs that are not http or https are skipped).
    public func allowing(_ urls: [URL]) -> AddressPolicy {
        var policy = self
        for url in urls {
            if let origin = Origin(url) { policy.allowedOrigins.insert(origin) }
        }
        return policy
    }

    /// Whether connections for `origin` skip the address check.
    public func allows(_ origin: Origin) -> Bool {
        allowedOrigins.contains(origin)
    }

    /// Why a connection for `origin` to `address` is refused, or nil when it may go ahead.
    public func refusal(connectingTo address: IPAddress, for origin: Origin) -> AddressCategory? {
        allows(origin) ? nil : AddressCategory.of(address)
    }
}
