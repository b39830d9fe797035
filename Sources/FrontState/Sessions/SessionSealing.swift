import Crypto
import Foundation
import HatkClient
import Logging
import Storage

/// Seals what a session row holds, and opens it again, the same way for every store: tokens and the DPoP key
/// sealed with the data key in a context naming the row, so a sealed value copied to another row does not open.
struct SessionSealing: Sendable {
    let key: SealingKey

    func sealTokens(_ tokens: TokenSet, idHash: String) throws -> [UInt8] {
        try key.seal(Array(try JSONEncoder().encode(tokens)), context: "tokens:\(idHash)")
    }

    func sealKey(_ dpopKey: [UInt8], idHash: String) throws -> [UInt8] {
        try key.seal(dpopKey, context: "dpop:\(idHash)")
    }

    func sealPending(_ pending: PendingAuthorization) throws -> [UInt8] {
        try key.seal(Array(try JSONEncoder().encode(pending)), context: "pending:\(pending.state)")
    }

    /// The session in a row with columns did, handle, sealed_tokens, sealed_key, origin; nil when it does not open
    /// (key rotated, tampering), which is treated as signed out.
    func session(idHash: String, row: Row) -> BrowserSession? {
        guard let sealedTokens = row.bytes("sealed_tokens"), let sealedKey = row.bytes("sealed_key"),
            let tokenBytes = try? key.open(sealedTokens, context: "tokens:\(idHash)"),
            let tokens = try? JSONDecoder().decode(TokenSet.self, from: Data(tokenBytes)),
            let dpopKey = try? key.open(sealedKey, context: "dpop:\(idHash)")
        else { return nil }
        // The did column is not sealed: someone able to edit the row (in a shared PostgreSQL) could name another
        // member there, and the front would show pages and decide roles as that member while calling with this
        // browser's tokens. The sealed subject is the account that signed in; a row that disagrees is not trusted.
        let did = row.string("did") ?? ""
        guard did == tokens.subject else {
            log.warning("a session row names \(did.prefix(100)) but its sealed tokens are \(tokens.subject); treated as signed out")
            return nil
        }
        return BrowserSession(
            idHash: idHash, did: did, handle: row.string("handle") ?? "", tokens: tokens, dpopKey: dpopKey,
            origin: row.string("origin") ?? "")
    }

    /// A taken pending sign-in's row (sealed, next, browser_hash), checked against the browser that came back.
    func pending(state: String, row: Row?, browser: String?) -> Result<(PendingAuthorization, next: String), PendingRefusal> {
        guard let row, let sealed = row.bytes("sealed"), let bytes = try? key.open(sealed, context: "pending:\(state)"),
            let pending = try? JSONDecoder().decode(PendingAuthorization.self, from: Data(bytes))
        else { return .failure(.unknown) }
        guard let browser, let stored = row.string("browser_hash"),
            constantTimeEquals(Array(stored.utf8), Array(BrowserSession.hash(browser).utf8))
        else { return .failure(.otherBrowser) }
        return .success((pending, row.string("next") ?? "/"))
    }
}
