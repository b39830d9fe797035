import Storage

/// A pushed authorization request waiting for the user to sign in.
struct PendingRequest: Sendable, Equatable {
    var clientID: String
    var redirectURI: String
    var scope: String
    var state: String
    var codeChallenge: String
    var loginHint: String?
    /// The thumbprint of the DPoP key that pushed it; the code exchange must use the same key.
    var jkt: String
    /// The origin the PAR proof named: the flow's issuer, in the callback's `iss`, the tokens' `iss` and the
    /// token request's `htu`.
    var issuer: String

    init(
        clientID: String, redirectURI: String, scope: String, state: String, codeChallenge: String,
        loginHint: String?, jkt: String, issuer: String
    ) {
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.scope = scope
        self.state = state
        self.codeChallenge = codeChallenge
        self.loginHint = loginHint
        self.jkt = jkt
        self.issuer = issuer
    }

    init?(row: Row) {
        guard let clientID = row.string("client_id"), let redirectURI = row.string("redirect_uri"),
            let scope = row.string("scope"), let state = row.string("state"),
            let codeChallenge = row.string("code_challenge"), let jkt = row.string("jkt")
        else { return nil }
        self.init(
            clientID: clientID, redirectURI: redirectURI, scope: scope, state: state, codeChallenge: codeChallenge,
            loginHint: row.string("login_hint"), jkt: jkt, issuer: row.string("issuer") ?? "")
    }
}

/// A grant: what one successful code exchange authorized, shared by every token refreshed from it.
struct Grant: Sendable, Equatable {
    var id: String
    var did: String
    var clientID: String
    var scope: String
    var jkt: String
    /// The origin the grant was made under; '' for grants from before origins were recorded.
    var issuer: String

    init(id: String, did: String, clientID: String, scope: String, jkt: String, issuer: String) {
        self.id = id
        self.did = did
        self.clientID = clientID
        self.scope = scope
        self.jkt = jkt
        self.issuer = issuer
    }

    /// From a row with the `grants` columns (`id` may be aliased as `grant_id`).
    init?(row: Row) {
        guard let id = row.string("grant_id") ?? row.string("id"), let did = row.string("did"),
            let clientID = row.string("client_id"), let scope = row.string("scope"), let jkt = row.string("jkt")
        else { return nil }
        self.init(id: id, did: did, clientID: clientID, scope: scope, jkt: jkt, issuer: row.string("issuer") ?? "")
    }
}
