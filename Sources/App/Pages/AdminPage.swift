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
        var inviteHref: String
        /// The review of members' reports, on its own page.
        var reportsHref: String
    }

    struct Row: Encodable {
        var csrf: String
        var handle: String
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

        init(_ member: HouseholdMember, csrf: String) {
            self.csrf = csrf
            handle = member.handle
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
        var isOpen: Bool

        init(_ invitation: HouseholdInvitation, csrf: String) {
            self.csrf = csrf
            id = invitation.id
            created = String(invitation.createdAt.prefix(16)).replacingOccurrences(of: "T", with: " ")
            expires = String(invitation.expiresAt.prefix(16)).replacingOccurrences(of: "T", with: " ")
            state = invitation.state
            isOpen = invitation.state == "open"
        }
    }
}
