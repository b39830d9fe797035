import ATProto
import Foundation
import HTTPServer
import Lexicon

/// Procedures on the viewer's private state in the appview: reports, mutes, seen marks, preferences. Checks and
/// error strings follow hatk's and Grain's handlers.
final class PrivateStateHandler: Sendable {
    let privateState: PrivateStateStore
    let moderation: ModerationStore
    let clock: @Sendable () -> UTCTime

    init(store: BackendStore, clock: @escaping @Sendable () -> UTCTime) {
        privateState = store.privateState
        moderation = store.moderation
        self.clock = clock
    }

    /// One of the procedures whose scope is ``Procedure/Scope/account``, its JSON input already decoded.
    func handle(_ procedure: Procedure, _ input: [String: JSONValue], viewer: DID) throws -> Response {
        switch procedure {
        case .createReport: return XRPC.json(try createReport(input, viewer: viewer))
        case .muteActor, .unmuteActor:
            guard case .string(let actor)? = input["actor"], DID.isValid(actor) else {
                throw BackendError.invalidRequest("actor must be a DID")
            }
            if procedure == .unmuteActor {
                try privateState.unmute(actor, by: viewer)
            } else {
                guard actor != viewer.rawValue else { throw BackendError.plain("Cannot mute yourself") }
                do {
                    try privateState.mute(actor, by: viewer, now: clock())
                } catch let error as PrivateStateStore.PreferenceError {
                    throw BackendError(.limitReached, status: .badRequest, error: error.description)
                }
            }
            return XRPC.json([String: String]())
        case .markStoriesViewed:
            try privateState.markViewed(try Self.storyURIs(input["stories"]), by: viewer, now: clock())
            return XRPC.json([String: String]())
        case .putPreference:
            guard case .string(let key)? = input["key"], !key.isEmpty else { throw BackendError.invalidRequest("Missing or invalid key") }
            guard let value = input["value"] else { throw BackendError.invalidRequest("Missing value") }
            do {
                try privateState.putPreference(key, value: value, for: viewer, now: clock())
            } catch let error as PrivateStateStore.PreferenceError {
                throw BackendError(.limitReached, status: .badRequest, error: error.description)
            }
            return XRPC.json(["success": true])
        case .uploadBlob, .createRecord, .putRecord, .deleteRecord:
            throw BackendError(.notFound, status: .notFound, error: "Method not found: \(procedure.rawValue)")
        }
    }

    /// `markStoriesViewed`'s input rules, with Grain's messages.
    static func storyURIs(_ value: JSONValue?) throws(BackendError) -> [String] {
        guard case .array(let items)? = value, !items.isEmpty else {
            throw BackendError.invalidRequest("stories must be a non-empty array of AT URIs")
        }
        guard items.count <= MarkStoriesViewed.maxStories else {
            throw BackendError.invalidRequest("stories may hold at most \(MarkStoriesViewed.maxStories) URIs")
        }
        var uris: [String] = []
        for item in items {
            guard case .string(let uri) = item, uri.hasPrefix("at://"), uri.utf8.count <= 512 else {
                throw BackendError.invalidRequest("stories must be AT URIs")
            }
            uris.append(uri)
        }
        return uris
    }

    /// `dev.hatk.createReport`, checked in hatk's order with hatk's messages.
    func createReport(_ input: [String: JSONValue], viewer: DID) throws -> ReportOutput {
        guard let subject = input["subject"], subject != .null else { throw BackendError.invalidRequest("Missing subject") }
        guard case .string(let label)? = input["label"], !label.isEmpty else {
            throw BackendError.invalidRequest("Missing or invalid label")
        }
        guard LabelDefinition.grain.contains(where: { $0.identifier == label }) else {
            throw BackendError.invalidRequest("Unknown label: \(label.prefix(100))")
        }
        var reason: String?
        switch input["reason"] {
        case .string(let text)?:
            // JavaScript's length counts UTF-16 code units.
            guard text.utf16.count <= ModerationStore.maxReportReason else {
                throw BackendError.invalidRequest("Reason must be \(ModerationStore.maxReportReason) characters or less")
            }
            reason = text.isEmpty ? nil : text
        case nil, .null?: reason = nil
        default: throw BackendError.invalidRequest("reason must be a string")
        }
        let (uri, did, cid): (String, String, String?)
        if let subjectURI = subject["uri"]?.stringValue {
            guard let parsed = try? ATURI(subjectURI), DID.isValid(parsed.authority) else {
                throw BackendError.invalidRequest("Invalid subject URI")
            }
            (uri, did, cid) = (parsed.description, parsed.authority, subject["cid"]?.stringValue.map { String($0.prefix(128)) })
        } else if let subjectDID = subject["did"]?.stringValue {
            guard DID.isValid(subjectDID) else { throw BackendError.invalidRequest("Subject must have uri or did") }
            (uri, did, cid) = ("at://\(subjectDID)", subjectDID, nil)
        } else {
            throw BackendError.invalidRequest("Subject must have uri or did")
        }
        let now = clock()
        let id: Int
        do {
            id = try moderation.createReport(
                subjectURI: uri, subjectDID: did, subjectCID: cid, label: label, reason: reason, by: viewer, now: now)
        } catch let error as ModerationStore.ReportError {
            throw BackendError(.limitReached, status: .tooManyRequests, error: error.description)
        }
        return ReportOutput(id: id, subject: subject, label: label, reason: reason, reportedBy: viewer.rawValue, createdAt: now.iso8601)
    }
}
