import ATProto
import HTTPServer

extension AuthServer {
    /// What one sign-in attempt is counted against.
    struct AttemptKeys: Sendable {
        var keys: [(key: String, policy: SignInThrottle.Policy)]
        /// The device key, when the browser proved it signed in to this account before.
        var deviceKey: String?
    }

    /// The keys of an attempt on `account` (nil when the name resolves to nobody): the device alone when the
    /// browser shows a valid device entry for the account, else the account and the client address.
    func attemptKeys(account: DirectoryAccount?, username: String, request: Request, secure: Bool, now: Int64) -> AttemptKeys {
        let limits = configuration.signInLimits
        func policy(_ free: Int) -> SignInThrottle.Policy {
            SignInThrottle.Policy(
                freeFailures: free, firstDelay: limits.firstDelay.wholeSeconds, maxDelay: limits.maxDelay.wholeSeconds)
        }
        if let account,
            let entry = deviceCookie(in: request, secure: secure).validEntry(
                for: account.did.rawValue, secret: macSecret, now: now, lifetime: limits.deviceLifetime.wholeSeconds)
        {
            let key = "device:" + entry.mac
            return AttemptKeys(keys: [(key, policy(limits.deviceFreeFailures))], deviceKey: key)
        }
        let accountKey = account.map { "account:" + $0.did.rawValue } ?? "name:" + username
        let address = "address:" + (configuration.clientAddress(request) ?? "unknown")
        return AttemptKeys(
            keys: [(accountKey, policy(limits.accountFreeFailures)), (address, policy(limits.addressFreeFailures))],
            deviceKey: nil)
    }

    /// The device cookie the browser sent for this scheme (empty when none).
    func deviceCookie(in request: Request, secure: Bool) -> DeviceCookie {
        DeviceCookie(parsing: request.cookie(DeviceCookie.name(secure: secure)))
    }

    /// The `Set-Cookie` value that remembers `did` on this browser, besides the accounts it already holds.
    func deviceCookieHeader(adding did: String, to request: Request, secure: Bool, now: Int64) -> String {
        let cookie = deviceCookie(in: request, secure: secure).adding(did: did, now: now, secret: macSecret)
        // Strict: the only request that needs it is the sign-in form's same-origin POST.
        let attributes = "Path=/; Max-Age=\(configuration.signInLimits.deviceLifetime.wholeSeconds); HttpOnly; SameSite=Strict"
        return DeviceCookie.name(secure: secure) + "=" + cookie.value + "; " + attributes + (secure ? "; Secure" : "")
    }

    /// "Too many attempts, try again in 4 seconds" (or minutes, rounded up).
    static func tooManyAttemptsMessage(wait: Int64) -> String {
        if wait < 60 { return "Too many attempts, try again in \(wait) second\(wait == 1 ? "" : "s")" }
        let minutes = (wait + 59) / 60
        return "Too many attempts, try again in \(minutes) minute\(minutes == 1 ? "" : "s")"
    }
}
