import ATProto
import FrontState
import HatkClient
import Synchronization

/// Credentials for acting as a signed-in person: their DPoP key and an access token, refreshed first when it is
/// about to expire, exactly once however many of their requests need it at the same moment.
final class SessionCredentials: Sendable {
    /// The grant is gone (revoked, expired, reused): the person has to sign in again.
    struct SignInRequired: Error {}

    let sessions: any SessionStoring
    let servers: SignInServers
    let refreshes = RefreshCoordinator()
    /// How many refreshes were made (tests check that concurrent requests share one).
    let refreshCount = Atomic<Int>(0)

    init(sessions: any SessionStoring, servers: SignInServers) {
        self.sessions = sessions
        self.servers = servers
    }

    func credentials(for session: BrowserSession, now: UTCTime) async throws -> DPoPCredentials {
        var tokens = session.tokens
        let seconds = now.unixSeconds
        if tokens.needsRefresh(now: seconds) {
            let oauth = servers.client(for: session.origin)
            let sessions = self.sessions
            do {
                // One refresh per session in this process (the coordinator), and across processes (the store's lock).
                tokens = try await refreshes.refresh(sessionID: session.idHash) { [self] in
                    try await sessions.whileRefreshing(idHash: session.idHash) {
                        // Re-read: another request, or another front, may have refreshed (and rotated the token) just
                        // before us.
                        guard let current = try sessions.session(idHash: session.idHash, now: seconds)?.tokens else {
                            throw SignInRequired()
                        }
                        if !current.needsRefresh(now: seconds) { return current }
                        let refreshed = try await oauth.refresh(current, dpopKey: session.dpopKey)
                        refreshCount.add(1, ordering: .relaxed)
                        // A session signed out meanwhile stays signed out.
                        guard try sessions.updateTokens(refreshed, idHash: session.idHash) else { throw SignInRequired() }
                        return refreshed
                    }
                }
            } catch let error as OAuthError where error.isInvalidGrant {
                try sessions.delete(idHash: session.idHash)
                throw SignInRequired()
            }
        }
        return DPoPCredentials(
            dpopKey: session.dpopKey, accessToken: tokens.accessToken, resourceOrigin: servers.resourceOrigin(for: session.origin))
    }
}
