import ATProto
import FrontState
import HTTPServer
import HatkClient
import Lexicon
import Readers

/// Reporting a story or an account (`dev.hatk.createReport`), with a reason from the upstream's labels.
extension SocialController {
    /// `reason` is at most this many characters (hatk's limit).
    static let maxReportReason = 2000

    /// What a report form is about, from `?story=` / `story` (with the story's CID) or `?actor=` / `actor`.
    struct ReportTarget {
        var subject: ReportSubject
        var text: String
        var story: String?
        var cid: String?
        var actor: String?
        var page: String
    }

    func reportTarget(_ context: RequestContext, story rawStory: String?, actor rawActor: String?) async throws -> ReportTarget? {
        if let rawStory, let uri = try? ATURI(rawStory), uri.collection == StoryRecord.collection, DID.parse(uri.authority) != nil {
            guard let view = try await context.reader.story(uri) else { return nil }
            return ReportTarget(
                subject: .record(uri: view.uri, cid: view.cid), text: "this story by \(view.creator.name)", story: view.uri,
                cid: view.cid, actor: nil, page: SiteURL.story(did: view.creator.did, rkey: view.rkey).path)
        }
        if let rawActor, let did = DID.parse(rawActor) {
            let name = (try await context.reader.profile(did.rawValue))?.profileView.name ?? did.rawValue
            return ReportTarget(
                subject: .account(did: did.rawValue), text: "\(name)’s account", story: nil, cid: nil, actor: did.rawValue,
                page: SiteURL.profile(actor: did.rawValue).path)
        }
        return nil
    }

    /// `GET /report?story=<uri>` or `?actor=<did>`: the form.
    func reportForm(_ context: RequestContext) async throws -> Response {
        let next = SiteURL.report.with([("story", context.query("story")), ("actor", context.query("actor"))])
        guard context.session != nil else { return signInRedirect(context, next: next) }
        guard let target = try await reportTarget(context, story: context.query("story"), actor: context.query("actor")) else {
            return errors.notFound("There is nothing to report at this address.", context: context)
        }
        return try await reportPage(context, target, chosen: nil, reason: "", error: nil, done: false)
    }

    func reportPage(
        _ context: RequestContext, _ target: ReportTarget, chosen: String?, reason: String, error: String?, done: Bool,
        status: HTTPStatus = .ok
    ) async throws -> Response {
        let labels = await visibility.labels.current()
        let model = ReportPageModel(
            csrf: context.csrf.value, subjectText: target.text, story: target.story, cid: target.cid, actor: target.actor,
            reasons: ReportReason.from(labels.definitions), chosen: chosen, reason: reason,
            returnTo: back(context, fallback: target.page), error: error, done: done, maxReason: Self.maxReportReason)
        return try pages.render("report", title: "Report", model: model, status: status, form: true, context: context)
    }

    /// `POST /report` with `story` (or `actor`), `label` and an optional `reason`.
    func report(_ context: RequestContext) async throws -> Response {
        let form = context.form
        guard let session = context.session, let credentials = try await credentials(context, session) else {
            return signInRedirect(context, next: SiteURL.report.with([("story", form["story"]), ("actor", form["actor"])]))
        }
        guard let target = try await reportTarget(context, story: form["story"], actor: form["actor"]) else {
            throw HTTPError(.notFound, "There is nothing to report at this address.")
        }
        let reason = form["reason"] ?? ""
        let labels = await visibility.labels.current()
        let label = form["label"] ?? ""
        let invalid: String? =
            !labels.definitions.contains(where: { $0.identifier == label })
            ? "Choose what is wrong." : reason.count > Self.maxReportReason ? "Say it in at most \(Self.maxReportReason) characters." : nil
        if let invalid {
            if wantsJSON(context) { return errors.json("InvalidReport", invalid, status: .badRequest) }
            return try await reportPage(
                context, target, chosen: label, reason: String(reason.prefix(Self.maxReportReason)), error: invalid, done: false,
                status: .badRequest)
        }
        do {
            try await actions.report(target.subject, label: label, reason: reason, as: credentials)
        } catch let error as HatkError {
            if let answer = refusal(error, context, what: "take the report", next: back(context, fallback: target.page)) { return answer }
            throw error
        }
        if wantsJSON(context) { return done(context, to: target.page, json: ["reported": .bool(true)]) }
        return try await reportPage(context, target, chosen: label, reason: "", error: nil, done: true)
    }
}
