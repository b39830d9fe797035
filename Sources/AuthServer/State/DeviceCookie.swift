import Crypto

/// The cookie that tells the sign-in throttle "this browser signed in to this account before" (see
/// ``SignInThrottle``): one entry per account, each `base64url(did).issuedAt.mac`, with the MAC an HMAC-SHA256
/// under the server's stored secret (truncated to 128 bits) over the DID and the time. Nothing is stored on the
/// server, a copy gives no access (it only changes whose failures an attempt counts against), and it cannot be
/// made for another account or time without the secret.
struct DeviceCookie: Sendable, Equatable {
    /// One account this browser signed in to.
    struct Entry: Sendable, Equatable {
        var did: String
        var issuedAt: Int64
        var mac: String
    }

    var entries: [Entry]

    /// Accounts remembered per browser (a shared household tablet); the oldest is dropped beyond.
    static let maxEntries = 8
    /// A longer value is ignored rather than parsed.
    static let maxLength = 2048

    /// `__Host-auth_device` on https (Secure, no Domain, Path=/); plain `auth_device` on http, where browsers refuse
    /// `__Host-` cookies.
    static func name(secure: Bool) -> String {
        secure ? "__Host-auth_device" : "auth_device"
    }

    /// The entries of a cookie value, syntax only; a malformed entry is skipped, never an error.
    init(parsing value: String?) {
        guard let value, value.utf8.count <= Self.maxLength else {
            entries = []
            return
        }
        entries = value.split(separator: "~").prefix(Self.maxEntries).compactMap { part in
            let fields = part.split(separator: ".", omittingEmptySubsequences: false)
            guard fields.count == 3, let didBytes = Base64URL.decode(String(fields[0])),
                let issuedAt = Int64(fields[1]), !fields[2].isEmpty
            else { return nil }
            return Entry(did: String(decoding: didBytes, as: UTF8.self), issuedAt: issuedAt, mac: String(fields[2]))
        }
    }

    init(entries: [Entry]) {
        self.entries = entries
    }

    /// The value to send back: entries joined by `~`, all cookie-safe characters.
    var value: String {
        entries.map { Base64URL.encode(Array($0.did.utf8)) + ".\($0.issuedAt)." + $0.mac }.joined(separator: "~")
    }

    /// The MAC of an entry for `did` issued at `issuedAt`.
    static func mac(did: String, issuedAt: Int64, secret: [UInt8]) -> String {
        let code = HMACSHA256.authenticationCode(for: Array("device v1 \(did) \(issuedAt)".utf8), key: secret)
        return Base64URL.encode(Array(code.prefix(16)))
    }

    /// The entry for `did`, when its MAC holds and it is neither expired nor from the future.
    func validEntry(for did: String, secret: [UInt8], now: Int64, lifetime: Int64) -> Entry? {
        entries.first { entry in
            entry.did == did && entry.issuedAt <= now + 60 && now - entry.issuedAt < lifetime
                && constantTimeEquals(
                    Array(entry.mac.utf8), Array(Self.mac(did: did, issuedAt: entry.issuedAt, secret: secret).utf8))
        }
    }

    /// This cookie with a fresh entry for `did` first and any older entry for it removed.
    func adding(did: String, now: Int64, secret: [UInt8]) -> DeviceCookie {
        let fresh = Entry(did: did, issuedAt: now, mac: Self.mac(did: did, issuedAt: now, secret: secret))
        return DeviceCookie(entries: Array(([fresh] + entries.filter { $0.did != did }).prefix(Self.maxEntries)))
    }
}
