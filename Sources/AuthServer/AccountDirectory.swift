public import ATProto

/// The household accounts the authorization server may sign in, as the composition root provides them: the
/// embedded backend's store in production, a list in tests. The server keeps only passwords and tokens; who
/// exists, and under which handle, is asked here every time.
public protocol AccountDirectory: Sendable {
    /// The account with this DID; nil when there is none or it may no longer sign in (deleted or disabled).
    func account(did: DID) throws -> DirectoryAccount?
    /// The account whose full handle is `handle` (lower case, e.g. `maya.home.test`); nil as for a DID.
    func account(handle: String) throws -> DirectoryAccount?
    /// The account with this DID while the household's owner has disabled it; nil when there is none or it may sign
    /// in. Asked only after its password was typed right, so that its holder learns why they cannot sign in.
    func disabledAccount(did: DID) throws -> DirectoryAccount?
    /// As `disabledAccount(did:)`, by full handle.
    func disabledAccount(handle: String) throws -> DirectoryAccount?
}

/// One household account as the authorization server sees it.
public struct DirectoryAccount: Sendable, Equatable {
    /// The permanent identifier: tokens, grants, passwords and sign-in limits are all keyed on it.
    public var did: DID
    /// The current handle, shown on the sign-in page and returned by the token endpoint.
    public var handle: String

    /// - Parameters:
    ///   - did: The account's DID.
    ///   - handle: Its current handle, lower case.
    public init(did: DID, handle: String) {
        self.did = did
        self.handle = handle
    }

    /// The handle's first label, the short name members type ("maya" for `maya.home.test`).
    var shortName: String {
        handle.split(separator: ".", maxSplits: 1).first.map(String.init) ?? handle
    }
}
