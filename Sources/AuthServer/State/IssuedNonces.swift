/// Server-issued DPoP nonces (atproto profile): one current nonce, replaced every `interval` seconds, with the
/// previous one still accepted until the next rotation so that requests in flight across a rotation succeed.
///
/// A value type driven by `now`, so rotation is tested without a clock.
struct IssuedNonces: Sendable {
    /// Seconds between rotations; the atproto profile asks for at most five minutes.
    static let interval: Int64 = 180

    private(set) var current: String
    private(set) var previous: String?
    private(set) var rotatedAt: Int64

    /// - Parameters:
    ///   - now: seconds since 1970.
    ///   - make: makes a fresh unguessable nonce.
    init(now: Int64, make: () -> String) {
        current = make()
        previous = nil
        rotatedAt = now
    }

    /// Rotates when due; after two intervals without traffic the old nonces are both stale.
    mutating func advance(now: Int64, make: () -> String) {
        let age = now - rotatedAt
        guard age >= Self.interval else { return }
        previous = age >= 2 * Self.interval ? nil : current
        current = make()
        rotatedAt = now
    }

    /// Whether a proof's nonce is current or in its grace period. Call ``advance(now:make:)`` first.
    func accepts(_ nonce: String?) -> Bool {
        guard let nonce else { return false }
        return nonce == current || nonce == previous
    }
}
