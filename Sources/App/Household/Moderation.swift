public import ATProto

/// The embedded household's reports, for its owner: what members reported (`dev.hatk.createReport` stores them), and
/// hiding a story for everyone. Only the embedded backend has one; a remote hatk's operators moderate there.
public protocol Moderation: Sendable {
    /// Reports waiting for review, newest first. - Throws: `HouseholdError.notOwner` unless `owner` is the owner.
    func openReports(by owner: String) throws -> [ReportEntry]
    /// Hides the record for everyone and resolves its reports.
    func hide(_ uri: ATURI, by owner: String, now: UTCTime) throws
    /// Closes a report without hiding anything.
    func dismiss(report id: Int, by owner: String, now: UTCTime) throws
}

/// One stored report as the owner reviews it.
public struct ReportEntry: Sendable, Equatable {
    public var id: Int
    /// `at://did/collection/rkey` for a record, `at://did` for an account.
    public var subject: String
    public var subjectDID: String
    public var label: String
    public var reason: String?
    public var reportedBy: String
    public var createdAt: String

    public init(id: Int, subject: String, subjectDID: String, label: String, reason: String?, reportedBy: String, createdAt: String) {
        self.id = id
        self.subject = subject
        self.subjectDID = subjectDID
        self.label = label
        self.reason = reason
        self.reportedBy = reportedBy
        self.createdAt = createdAt
    }
}
