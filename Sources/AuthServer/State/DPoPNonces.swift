import ATProto
import Crypto
import Synchronization

/// The DPoP nonces this server hands out, shared by the authorization endpoints, the resource checks and every
/// script-facing answer. Without ``isRequired`` (hatk's behaviour) there are none and every proof is accepted.
final class DPoPNonces: Sendable {
    let isRequired: Bool
    private let clock: @Sendable () -> UTCTime
    /// Nil unless nonces are required.
    private let state: Mutex<IssuedNonces?>

    init(required: Bool, clock: @escaping @Sendable () -> UTCTime) {
        isRequired = required
        self.clock = clock
        state = Mutex(required ? IssuedNonces(now: clock().unixSeconds, make: Self.makeNonce) : nil)
    }

    static func makeNonce() -> String { SecureRandom.token(byteCount: 16) }

    /// True outside nonce mode, or when `nonce` is current or in its grace period.
    func accepts(_ nonce: String?, now: Int64) -> Bool {
        state.withLock { state in
            guard state != nil else { return true }
            state?.advance(now: now, make: Self.makeNonce)
            return state?.accepts(nonce) ?? true
        }
    }

    /// The nonce to send in `DPoP-Nonce` right now, or nil when nonces are off.
    func current() -> String? {
        let now = clock().unixSeconds
        return state.withLock { state in
            state?.advance(now: now, make: Self.makeNonce)
            return state?.current
        }
    }
}
