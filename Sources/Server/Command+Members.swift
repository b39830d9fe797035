import ATProto
public import App
import Foundation

/// `grain-stories users list|disable|enable|remove|restore|quota|reset-password`: the owner's administration of
/// members from the command line, through the same `MemberAdministration` as the `/admin` page.
extension Command {
    public struct MembersCommand: Sendable {
        public enum Action: Sendable, Equatable {
            case list
            case change(MemberChange, member: String)
        }
        public var action: Action
        /// The data and the key: serve's configuration file and environment beneath the command's flags
        /// (`parseHousehold`).
        public var configuration: ServeConfiguration
    }

    static let membersUsage =
        "usage: grain-stories users list|disable NAME|enable NAME|remove NAME|restore NAME|reset-password NAME|quota NAME BYTES|none "
        + householdUsage

    static func parseMembers(
        _ arguments: [String], environment: [String: String] = [:], defaultConfig: String? = nil
    ) throws(UsageError) -> MembersCommand {
        let (configuration, positional) = try parseHousehold(arguments, environment: environment, defaultConfig: defaultConfig)
        if let flag = positional.first(where: { $0.hasPrefix("--") }) { throw UsageError(description: "unexpected \(flag)\n\(membersUsage)") }
        let action: MembersCommand.Action
        switch (positional.first, positional.count) {
        case ("list", 1): action = .list
        case ("disable", 2): action = .change(.disable, member: positional[1])
        case ("enable", 2): action = .change(.enable, member: positional[1])
        case ("remove", 2): action = .change(.remove, member: positional[1])
        case ("restore", 2): action = .change(.restore, member: positional[1])
        case ("reset-password", 2): action = .change(.resetPassword, member: positional[1])
        case ("quota", 3):
            do { action = .change(.quota(try MemberChange.parseQuota(positional[2])), member: positional[1]) } catch {
                throw UsageError(description: error.description)
            }
        default: throw UsageError(description: membersUsage)
        }
        return MembersCommand(action: action, configuration: configuration)
    }

    func members(_ command: MembersCommand) async throws {
        let app = try Application(configuration: command.configuration)
        guard let administration = app.front.administration else {
            throw UsageError(description: "members live in the embedded backend; this data has none")
        }
        switch command.action {
        case .list:
            print(Self.memberTable(try administration.members()))
        case .change(let change, let member):
            let result = try await administration.apply(change, to: member, by: "the command line", now: app.clock())
            print(result.message)
            if let password = result.password { print("New password (shown once): \(password)") }
        }
        app.finish()
    }

    /// `users list`: one line per member, in columns.
    static func memberTable(_ members: [HouseholdMember]) -> String {
        let rows =
            [["HANDLE", "ROLE", "STATUS", "STORAGE", "QUOTA", "RECORDS"]]
            + members.map {
                [
                    $0.handle, $0.role.rawValue, $0.status + ($0.removalDue.map { " (\($0.prefix(10)))" } ?? ""),
                    "\($0.storageBytes)", $0.quotaBytes.map(String.init) ?? "none", "\($0.recordCount)",
                ]
            }
        let widths = (0..<6).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { $1.padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }
}
