import ATProto
import Lexicon

/// A reason a report can give: one of the upstream's label identifiers (Grain's: copyright, gore, harassment,
/// misleading, nudity, other, sexual, spam), with its name and description.
struct ReportReason: Encodable, Equatable {
    var identifier: String
    var name: String
    var description: String

    /// The upstream's reasons in its order, "Other" last: the catch-all after every specific reason.
    static func from(_ definitions: [LabelDefinition]) -> [ReportReason] {
        let reasons = definitions.map {
            ReportReason(identifier: $0.identifier, name: $0.displayName, description: $0.locales?.first?.description ?? "")
        }
        return reasons.filter { $0.identifier != "other" } + reasons.filter { $0.identifier == "other" }
    }
}

/// One comment as pages and the comments panel show it.
struct CommentItem: Encodable, Equatable {
    var uri: String
    var author: String
    var handle: String
    var profileHref: String
    var segments: [RichText.Segment]
    var ago: String
    var createdAt: String
    /// The author muted by the visitor: shown collapsed.
    var muted: Bool
    /// Set on the visitor's own comments.
    var deleteHref: String?

    init(_ view: CommentView, viewer: String?, story: ATURI, now: UTCTime) {
        uri = view.uri
        author = view.author.name
        handle = view.author.handle
        profileHref = SiteURL.profile(actor: view.author.did).path
        // Untrusted text and facets: only well-formed links to http(s) or our profiles become links.
        segments = RichText.segments(String(view.text.prefix(CommentRecord.maxBytes)), facets: view.facets)
        ago = RelativeTime.short(UTCTime(iso8601: view.createdAt) ?? now, now: now)
        createdAt = view.createdAt
        muted = view.muted == true
        deleteHref = viewer == view.author.did ? SiteURL.deleteComment(did: story.authority, rkey: story.rkey).path : nil
    }
}

/// `/api/comments/<did>/<rkey>`: a page of comments for the viewer's panel.
struct CommentsData: Encodable, Equatable {
    var comments: [CommentItem]
    /// The next page's address, nil on the last.
    var more: String?
    var total: Int
    /// Comments are closed on expired stories, as Grain does.
    var open: Bool
}

/// `/profile/<did>/story/<rkey>/comments`: the thread, with a form, for pages without scripts.
struct CommentsPageModel: Encodable, Equatable {
    var storyHref: String
    var thumb: String
    var thumbAlt: String
    var author: String
    var comments: [CommentItem]
    var moreHref: String?
    /// "1 comment", "12 comments".
    var totalText: String
    var open: Bool
    var signedIn: Bool
    var loginHref: String
    var action: String
    var csrf: String?
    var text: String
    var error: String?
}

/// `/report`: what is reported, and the reasons to choose from.
struct ReportPageModel: Encodable, Equatable {
    var csrf: String
    /// "this story by Maya" or "Maya’s account".
    var subjectText: String
    var story: String?
    var cid: String?
    var actor: String?
    var reasons: [ReportReason]
    var chosen: String?
    var reason: String
    var returnTo: String
    var error: String?
    var done: Bool
    var maxReason: Int
}

/// `/activity`: favourites and comments on the visitor's stories.
struct ActivityPageModel: Encodable, Equatable {
    struct Entry: Encodable, Equatable {
        var who: String
        var profileHref: String
        /// "favourited your story" or "commented on your story".
        var what: String
        var comment: String?
        var ago: String
        var createdAt: String
        var storyHref: String?
        var thumb: String?
        var unseen: Bool
    }

    var entries: [Entry]
    var moreHref: String?
    var available: Bool
    var mutedHref: String
    /// The form that marks what the page shows as seen (its script sends it as the page opens); nil when nothing
    /// shown is new.
    var markSeen: MarkSeen?

    struct MarkSeen: Encodable, Equatable {
        var action: String
        var csrf: String
        /// When the page was made: what arrives after it stays new.
        var at: String
    }
}

/// `/muted`: whom the visitor muted or blocks, each with undo.
struct MutedPageModel: Encodable, Equatable {
    struct Person: Encodable, Equatable {
        var name: String
        var handle: String
        var profileHref: String
        var action: String
    }

    var csrf: String
    var muted: [Person]
    var blocked: [Person]
    var available: Bool
}

/// `/admin/reports`: the household owner's review.
struct AdminReportsModel: Encodable, Equatable {
    struct Entry: Encodable, Equatable {
        var id: Int
        var subject: String
        var subjectHref: String
        /// True for a story (it can be hidden); false for an account.
        var isStory: Bool
        var label: String
        var reason: String?
        var reportedBy: String
        var ago: String
    }

    var csrf: String
    var entries: [Entry]
    var notice: String?
}
