/// The names callers outside the module knew before the store was split by area, kept so their code (and other
/// branches' merges) need not follow each type to its area.
extension BackendStore {
    public typealias Member = MemberStore.Member
    public typealias MemberError = MemberStore.MemberError
    public typealias HouseholdError = HouseholdStore.HouseholdError
    public typealias Invitation = HouseholdStore.Invitation
    public typealias Screen = ScreenStore.Screen
    public typealias Share = ShareStore.Share
    public typealias Report = ModerationStore.Report
    public typealias ReportError = ModerationStore.ReportError
    public typealias PreferenceError = PrivateStateStore.PreferenceError
    public typealias GraphRow = PrivateStateStore.GraphRow
    public typealias Relationships = SocialStore.Relationships
    public typealias CommentRow = SocialStore.CommentRow
    public typealias NotificationRow = SocialStore.NotificationRow
    public typealias StoryRow = StoryStore.StoryRow
    public typealias StoredProfile = StoryStore.StoredProfile
    public typealias AuthorRow = StoryStore.AuthorRow

    /// The longest story description kept, in characters.
    public static var maxDescription: Int { StoryStore.maxDescription }
    /// How long a member's removal waits before it happens.
    public static var removalGrace: Double { MemberStore.removalGrace }
    /// The longest report reason, in characters.
    public static var maxReportReason: Int { ModerationStore.maxReportReason }
}
