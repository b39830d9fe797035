/// What only the embedded household gives the front: its members and passes, its reports, what its photos show.
/// Against a remote hatk each is nil, and the pages that need them are not routed.
public struct FrontHousehold: Sendable {
    /// Account administration, invitations, screens and share links.
    public var directory: (any HouseholdDirectory)?
    /// Reports, for the owner's review page.
    public var moderation: (any Moderation)?
    /// What each photo shows, written from the create form's field.
    public var descriptions: (any StoryDescribing)?

    public init(
        directory: (any HouseholdDirectory)? = nil, moderation: (any Moderation)? = nil, descriptions: (any StoryDescribing)? = nil
    ) {
        self.directory = directory
        self.moderation = moderation
        self.descriptions = descriptions
    }

    /// A remote hatk's: none of it.
    public static let none = FrontHousehold()
}
