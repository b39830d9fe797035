import ATProto
import HTTPServer
import Synchronization

/// The sign-in form's ``SignInThrottle``, shared by every attempt, and which keys an attempt counts against.
final class SignInLimiter: Sendable {
    let limits: SignInLimits
    let clientAddress: @Sendable (Request) -> String?
    let cookies: DeviceCookies
    private let throttle: Mutex<SignInThrottle>

    init(limits: SignInLimits, clientAddress: @escaping @Sendable (Request) -> String?, cookies: DeviceCookies) {
        self.limits = limits
        self.clientAddress = clientAddress
        self.cookies = cookies
        throttle = Mutex(SignInThrottle(forgetAfter: limits.forgetAfter.wholeSeconds))
    }

    /// What one sign-in attempt is counted against.
    struct AttemptKeys: Sendable {
        var keys: [(key: String, policy: SignInThrottle.Policy)]
        /// The device key, when the browser proved it signed in to this account before.
        var deviceKey: String?
    }

    /// The keys of an attempt on `account` (nil when the name resolves to nobody): the device alone when the
    /// browser shows a valid device entry for the account, else the account and the client address.
    func attemptKeys(account: DirectoryAccount?, username: String, request: Request, secure: Bool, now: Int64) -> AttemptKeys {
        let limits = limits
        func policy(_ free: Int) -> SignInThrottle.Policy {
            SignInThrottle.Policy(
                freeFailures: free, firstDelay: limits.firstDelay.wholeSeconds, maxDelay: limits.maxDelay.wholeSeconds)
        }
        if let account, let entry = cookies.validEntry(for: account.did.rawValue, in: request, secure: secure, now: now) {
            let key = "device:" + entry.mac
            return AttemptKeys(keys: [(key, policy(limits.deviceFreeFailures))], deviceKey: key)
        }
        let accountKey = account.map { "account:" + $0.did.rawValue } ?? "name:" + username
        let address = "address:" + (clientAddress(request) ?? "unknown")
        return AttemptKeys(
            keys: [(accountKey, policy(limits.accountFreeFailures)), (address, policy(limits.addressFreeFailures))],
            deviceKey: nil)
    }

    /// Seconds the attempt must wait; nil when it may go ahead now.
    func wait(for attempt: AttemptKeys, now: Int64) -> Int64? {
        throttle.withLock { $0.wait(for: attempt.keys, now: now) }
    }

    func recordFailure(of attempt: AttemptKeys, now: Int64) {
        throttle.withLock { $0.recordFailure(attempt.keys.map(\.key), now: now) }
    }

    /// After a right password: the device's failures are forgotten, never the account's or the address's.
    func recordSuccess(of attempt: AttemptKeys) {
        if let deviceKey = attempt.deviceKey { throttle.withLock { $0.reset(deviceKey) } }
    }

    /// "Too many attempts, try again in 4 seconds" (or minutes, rounded up).
    static func tooManyAttemptsMessage(wait: Int64) -> String {
        if wait < 60 { return "Too many attempts, try again in \(wait) second\(wait == 1 ? "" : "s")" }
        let minutes = (wait + 59) / 60
        return "Too many attempts, try again in \(minutes) minute\(minutes == 1 ? "" : "s")"
    }
}
