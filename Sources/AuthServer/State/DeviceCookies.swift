import HTTPServer

/// Reads and writes the browsers' ``DeviceCookie``s under the server's HMAC secret.
struct DeviceCookies: Sendable {
    let secret: [UInt8]
    /// Seconds a cookie entry vouches for a browser; renewed at each sign-in.
    let lifetime: Int64

    /// The device cookie the browser sent for this scheme (empty when none).
    func cookie(in request: Request, secure: Bool) -> DeviceCookie {
        DeviceCookie(parsing: request.cookie(DeviceCookie.name(secure: secure)))
    }

    /// The browser's valid entry for `did`, when it proves it signed in to that account before.
    func validEntry(for did: String, in request: Request, secure: Bool, now: Int64) -> DeviceCookie.Entry? {
        cookie(in: request, secure: secure).validEntry(for: did, secret: secret, now: now, lifetime: lifetime)
    }

    /// The `Set-Cookie` value that remembers `did` on this browser, besides the accounts it already holds.
    func setCookieHeader(adding did: String, to request: Request, secure: Bool, now: Int64) -> String {
        let cookie = cookie(in: request, secure: secure).adding(did: did, now: now, secret: secret)
        // Strict: the only request that needs it is the sign-in form's same-origin POST.
        let attributes = "Path=/; Max-Age=\(lifetime); HttpOnly; SameSite=Strict"
        return DeviceCookie.name(secure: secure) + "=" + cookie.value + "; " + attributes + (secure ? "; Secure" : "")
    }
}
