public import ATProto
public import Backend
import Crypto
public import HTTPServer
public import HatkClient

/// Test-only: an access token `test:<did>` stands for that DID, but only with a DPoP proof that verifies for the
/// request's method and URL (so the client's signed reads and writes are checked for real).
public struct ProofCheckingAuthenticator: ViewerAuthenticator {
    let origin: @Sendable () -> String

    /// - Parameter origin: the origin proofs must name (the test server's, known once it is bound).
    public init(origin: @escaping @Sendable () -> String) {
        self.origin = origin
    }

    public func viewer(for request: Request) async -> AuthenticatedViewer? {
        guard let authorization = request.headers["Authorization"], authorization.hasPrefix("DPoP test:"),
            let proof = request.headers["DPoP"], let did = DID.parse(String(authorization.dropFirst("DPoP test:".count)))
        else { return nil }
        let token = String(authorization.dropFirst("DPoP ".count))
        guard
            (try? DPoP.verify(
                proof, method: request.method.rawValue, url: origin() + request.path, now: UTCTime.now.unixSeconds,
                accessToken: token)) != nil
        else { return nil }
        return AuthenticatedViewer(did: did, scope: OAuthClient.grainScope)
    }

    /// Credentials the authenticator accepts for `did`, with a fresh proof key.
    public static func credentials(_ did: DID) -> DPoPCredentials {
        DPoPCredentials(dpopKey: P256PrivateKey().rawRepresentation, accessToken: "test:\(did.rawValue)")
    }
}
