/// Why a resource request carries no usable credential; logged, never shown to the client.
enum ResourceRefusal: Error, Equatable, CustomStringConvertible {
    /// No `Authorization: DPoP` header: an anonymous request, not a failure.
    case noCredentials
    case missingProof
    case invalidToken(String)
    case tokenExpired
    case invalidProof(String)
    case keyMismatch
    case nonceRequired
    case revoked
    case unknownAccount

    var description: String {
        switch self {
        case .noCredentials: "no DPoP credentials"
        case .missingProof: "DPoP token without exactly one DPoP proof"
        case .invalidToken(let why): "access token rejected: \(why)"
        case .tokenExpired: "access token expired"
        case .invalidProof(let why): "DPoP proof rejected: \(why)"
        case .keyMismatch: "DPoP proof key does not match the token's cnf.jkt"
        case .nonceRequired: "DPoP proof lacks the current nonce"
        case .revoked: "access token revoked"
        case .unknownAccount: "the token's account no longer exists or may not sign in"
        }
    }
}
