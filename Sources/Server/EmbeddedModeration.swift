import ATProto
import App
import Backend

/// The front's view of the embedded household's reports: the backend's store, checked for the owner there.
struct EmbeddedModeration: Moderation {
    let store: BackendStore

    func openReports(by owner: String) throws -> [ReportEntry] {
        try owned { try store.moderation.reports(by: try did(owner)) }.map {
            ReportEntry(
                id: $0.id, subject: $0.subjectURI, subjectDID: $0.subjectDID, label: $0.label, reason: $0.reason, reportedBy: $0.reportedBy,
                createdAt: $0.createdAt)
        }
    }

    func hide(_ uri: ATURI, by owner: String, now: UTCTime) throws {
        try owned { try store.moderation.hideRecord(uri, by: try did(owner), now: now) }
    }

    func dismiss(report id: Int, by owner: String, now: UTCTime) throws {
        try owned { try store.moderation.dismissReport(id, by: try did(owner), now: now) }
    }

    /// The store's "not the owner" in the front's words.
    func owned<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch BackendStore.HouseholdError.notOwner { throw HouseholdError.notOwner }
    }

    /// The owner's DID; anything else is refused as not the owner.
    func did(_ owner: String) throws -> DID {
        guard let did = DID.parse(owner) else { throw HouseholdError.notOwner }
        return did
    }
}
