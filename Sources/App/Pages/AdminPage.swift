import ATProto
import Foundation
import Units

/// The owner's page of members and invitations, as its template shows them.
enum AdminPage {
    /// Days between a removal and the deletion of the member's records and blobs (the backend's grace period).
    static let graceDays = 7

    struct Model: Encodable {
        var csrf: String
        var notice: String?
        var error: String?
        var graceDays: Int
        var members: [Row]
        var invitations: [InvitationRow]
        var screens: [ScreenRow]
        var inviteHref: String
        /// The review of members' reports, on its own page.
        var reportsHref: String
        /// Where screens are paired.
        var kioskSettingsHref = SiteURL.kioskSettings.path
    }

    struct Row: Encodable {
        var csrf: String
        var handle: String
        /// "Owner", "Member" or "Guest".
        var role: String
        var status: String
        var storage: String
        var quota: String
        /// The quota as the form field shows it (empty for none).
        var quotaInput: String
        var records: Int
        var isOwner: Bool
        var isActive: Bool
        var isDisabled: Bool
        var isPendingRemoval: Bool
        var removalDue: String?
        /// Days until a removal deletes what they posted, for the confirmation's words.
        var graceDays = AdminPage.graceDays

        init(_ member: HouseholdMember, csrf: String) {
            self.csrf = csrf
            handle = member.handle
            role = member.role.label
            status = member.status
            storage = ByteCount.text(member.storageBytes)
            quota = member.quotaBytes.map(ByteCount.text) ?? "none"
            quotaInput = member.quotaBytes.map(String.init) ?? ""
            records = member.recordCount
            isOwner = member.isOwner
            isPendingRemoval = member.removalDue != nil
            isDisabled = member.status == "disabled"
            isActive = member.status == "active"
            removalDue = member.removalDue.map { String($0.prefix(10)) }
        }
    }

    struct InvitationRow: Encodable {
        var csrf: String
        var id: String
        var created: String
        var expires: String
        var state: String
        var role: String
        var isOpen: Bool

        init(_ invitation: HouseholdInvitation, csrf: String) {
            self.csrf = csrf
            id = invitation.id
            created = String(invitation.createdAt.prefix(16)).replacingOccurrences(of: "T", with: " ")
            expires = String(invitation.expiresAt.prefix(16)).replacingOccurrences(of: "T", with: " ")
            state = invitation.state
            role = invitation.role.label
            isOpen = invitation.state == "open"
        }
    }

    struct ScreenRow: Encodable {
        var csrf: String
        var id: String
        var name: String
        /// "just now", "5 min ago"…; "never" for a screen not seen since pairing.
        var lastSeen: String

        init(_ screen: PairedScreen, csrf: String, now: UTCTime) {
            self.csrf = csrf
            id = screen.id
            name = screen.name
            lastSeen = screen.lastSeen.flatMap { UTCTime(iso8601: $0) }.map { RelativeTime.long($0, now: now) } ?? "never"
        }
    }
}
