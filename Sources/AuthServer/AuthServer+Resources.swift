public import HTTPServer

/// What the backend asks about its own requests; ``ResourceChecks`` answers.
extension AuthServer {
    /// The account and granted scope a backend request acts for: `Authorization: DPoP <token>` with a matching
    /// `DPoP` proof whose `htu` is one of our origins plus the request path (the origin the client addressed, not
    /// the Host the request arrived with). Any failure gives nil, as in hatk; it is logged, because a wrong public
    /// URL otherwise shows up only as "logged out".
    public func resourceViewer(for request: Request) async -> ResourceViewer? {
        await resources.resourceViewer(for: request)
    }

    /// Whether a resource request's head carries credentials worth reading its body for: `Authorization: DPoP`
    /// with an access token of ours (signature, type, issuer, expiry) and one `DPoP` proof header.
    ///
    /// This is the cheap part of ``resourceViewer(for:)`` (one signature check, no database, nothing consumed), so
    /// it can run on a server thread before any body byte is read: a made-up token is refused at once instead of
    /// the server holding a 5 MB body for it. The proof, its replay check, the nonce and revocation are checked
    /// once the body is in.
    public func admitsResourceRequest(_ head: some RequestHeadFields) -> Bool {
        resources.admitsResourceRequest(head)
    }

    /// In nonce mode, the challenge for a request whose DPoP proof lacks a current nonce, so the backend can answer
    /// `401` with `WWW-Authenticate` and `DPoP-Nonce` and the client retries. Nil when nonces are off, the request
    /// has no proof, or its nonce is fine.
    public func dpopChallenge(for request: Request) -> (nonce: String, wwwAuthenticate: String)? {
        resources.dpopChallenge(for: request)
    }

    /// The nonce to send in `DPoP-Nonce` right now, or nil when nonces are off (hatk's behaviour).
    ///
    /// The backend adds it to its own responses so that resource calls learn it too.
    public func currentDPoPNonce() -> String? {
        nonces.current()
    }
}
