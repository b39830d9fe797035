import ATProto
import HTTPServer
import Lexicon

/// Every procedure the backend serves, with what its caller's token must be granted and what hatk answers when
/// nobody is signed in. One table: a procedure missing here answers 404.
enum Procedure: String, CaseIterable, Sendable {
    case uploadBlob = "dev.hatk.uploadBlob"
    case createRecord = "dev.hatk.createRecord"
    case putRecord = "dev.hatk.putRecord"
    case deleteRecord = "dev.hatk.deleteRecord"
    case putPreference = "dev.hatk.putPreference"
    case createReport = "dev.hatk.createReport"
    case muteActor = "social.grain.graph.muteActor"
    case unmuteActor = "social.grain.graph.unmuteActor"
    case markStoriesViewed = "social.grain.unspecced.markStoriesViewed"

    /// What the token's scope must cover.
    enum Scope: Equatable {
        /// `blob:<mime>` for the body's Content-Type.
        case blob
        /// `repo:<collection>` with this action; nil for putRecord, which creates or updates.
        case repo(GrantedScope.Action?)
        /// `atproto` alone: the viewer's private state in the appview (mutes, seen marks, reports, preferences),
        /// which Grain's own scope string grants through `atproto`.
        case account
    }

    var scope: Scope {
        switch self {
        case .uploadBlob: return .blob
        case .createRecord: return .repo(.create)
        case .putRecord: return .repo(nil)
        case .deleteRecord: return .repo(.delete)
        case .putPreference, .createReport, .muteActor, .unmuteActor, .markStoriesViewed: return .account
        }
    }

    /// hatk's answer without a viewer: its core routes say 401; Grain's handlers throw a plain `Error`, a 500.
    var unauthenticated: BackendError {
        switch self {
        case .muteActor, .unmuteActor, .markStoriesViewed: return .authenticationRequiredPlain
        default: return .authenticationRequired
        }
    }

    /// Checks a repo write against the token; `action` is what the write turned out to do.
    static func checkRepo(_ viewer: AuthenticatedViewer, _ collection: String, _ action: GrantedScope.Action) throws(BackendError) {
        guard viewer.grantedScope.allowsRepo(collection, action) else {
            throw BackendError.scopeMissing("repo:\(collection)?action=\(action.rawValue)")
        }
    }

    /// Checks what can be checked before the input is read (a blob's type is checked once it is known to be one
    /// the backend accepts at all, which answers 415 otherwise).
    func check(_ viewer: AuthenticatedViewer) throws(BackendError) {
        guard viewer.grantedScope.hasAtproto else { throw BackendError.scopeMissing("atproto") }
    }

    static func checkBlob(_ viewer: AuthenticatedViewer, _ mimeType: String) throws(BackendError) {
        guard viewer.grantedScope.allowsBlob(mimeType) else { throw BackendError.scopeMissing("blob:\(mimeType)") }
    }

    /// What a guest may write: favourites, comments and blocks, never a story, a gallery or a photo.
    static let guestCollections: Set<String> = [FavoriteRecord.collection, CommentRecord.collection, BlockRecord.collection]

    /// Refuses a guest's write outside ``guestCollections`` (and, with a nil collection, any upload): guests watch,
    /// favourite and comment; only members post.
    static func checkGuest(_ did: DID, writing collection: String?, accounts: AccountStore) throws {
        guard try accounts.role(of: did.rawValue) == .guest else { return }
        if let collection, guestCollections.contains(collection) { return }
        throw BackendError(
            .forbidden, status: .forbidden, error: "Forbidden",
            message: "Guests of this household watch, favourite and comment; only its members post stories")
    }
}
