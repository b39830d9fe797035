public import Foundation
import Synchronization

/// The latest `DPoP-Nonce` each server gave us, keyed by origin. Servers that never send one (hatk)
/// simply never appear here, and proofs go out without a nonce.
public final class ReceivedNonces: Sendable {
    private let nonces = Mutex<[String: String]>([:])

    public init() {}

    public func nonce(for url: URL) -> String? {
        nonces.withLock { $0[Self.origin(url)] }
    }

    /// Remembers the `DPoP-Nonce` header value of a response from `url`; nil or empty changes nothing.
    public func update(for url: URL, nonce: String?) {
        guard let nonce, !nonce.isEmpty else { return }
        nonces.withLock { $0[Self.origin(url)] = nonce }
    }

    static func origin(_ url: URL) -> String {
        "\(url.scheme ?? "")://\(url.host ?? "")\(url.port.map { ":\($0)" } ?? "")".lowercased()
    }
}
