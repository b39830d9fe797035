/// The route side of `SiteURL`: each kind of page has a router pattern beside the path its case builds.
extension SiteURL {
    /// One case per page, without its values.
    enum Kind: CaseIterable, Sendable {
        case home, stories, story, profile, create, createInspect, placesData, manifest, share, healthz, readyz, metrics, login, logout,
            authCallback, clientMetadata
        case deleteStory, storiesData, seen, kiosk, kioskData, welcome, invite, join
        case favorite, comments, deleteComment, commentsData, storyPreview, storyBlurred, report, mute, block, muted, activity
        case adminReports, admin, memories, kioskSettings, kioskQR, storyQR
    }

    var kind: Kind {
        switch self {
        case .home: .home
        case .stories: .stories
        case .story: .story
        case .profile: .profile
        case .create: .create
        case .createInspect: .createInspect
        case .placesData: .placesData
        case .manifest: .manifest
        case .share: .share
        case .healthz: .healthz
        case .readyz: .readyz
        case .metrics: .metrics
        case .login: .login
        case .logout: .logout
        case .authCallback: .authCallback
        case .clientMetadata: .clientMetadata
        case .deleteStory: .deleteStory
        case .storiesData: .storiesData
        case .seen: .seen
        case .kiosk: .kiosk
        case .kioskData: .kioskData
        case .welcome: .welcome
        case .invite: .invite
        case .join: .join
        case .favorite: .favorite
        case .comments: .comments
        case .deleteComment: .deleteComment
        case .commentsData: .commentsData
        case .storyPreview: .storyPreview
        case .storyBlurred: .storyBlurred
        case .report: .report
        case .mute: .mute
        case .block: .block
        case .muted: .muted
        case .activity: .activity
        case .adminReports: .adminReports
        case .admin: .admin
        case .memories: .memories
        case .kioskSettings: .kioskSettings
        case .kioskQR: .kioskQR
        case .storyQR: .storyQR
        }
    }
}

extension SiteURL.Kind {
    /// The router pattern: the path with `:name` where a case has a value.
    var pattern: String {
        switch self {
        case .home: "/"
        case .stories: "/stories/:actor"
        case .story: "/profile/:did/story/:rkey"
        case .profile: "/profile/:actor"
        case .create: "/create"
        case .createInspect: "/api/inspect"
        case .placesData: "/api/places"
        case .manifest: "/manifest.webmanifest"
        case .share: "/share"
        case .healthz: "/healthz"
        case .readyz: "/readyz"
        case .metrics: "/metrics"
        case .login: "/login"
        case .logout: "/logout"
        case .authCallback: "/auth/callback"
        case .clientMetadata: "/oauth-client-metadata.json"
        case .deleteStory: "/profile/:did/story/:rkey/delete"
        case .storiesData: "/api/stories/:actor"
        case .seen: "/api/seen"
        case .kiosk: "/kiosk"
        case .kioskData: "/api/kiosk"
        case .welcome: "/welcome"
        case .invite: "/invite"
        case .join: "/join/:token"
        case .favorite: "/profile/:did/story/:rkey/favorite"
        case .comments: "/profile/:did/story/:rkey/comments"
        case .deleteComment: "/profile/:did/story/:rkey/comments/delete"
        case .commentsData: "/api/comments/:did/:rkey"
        case .storyPreview: "/profile/:did/story/:rkey/preview.jpg"
        case .storyBlurred: "/profile/:did/story/:rkey/blurred.jpg"
        case .report: "/report"
        case .mute: "/profile/:actor/mute"
        case .block: "/profile/:actor/block"
        case .muted: "/muted"
        case .activity: "/activity"
        case .adminReports: "/admin/reports"
        case .admin: "/admin"
        case .memories: "/memories/:years"
        case .kioskSettings: "/kiosk/settings"
        case .kioskQR: "/kiosk/qr.svg"
        case .storyQR: "/profile/:did/story/:rkey/qr.svg"
        }
    }

    /// A sample URL of this kind, for the test that every path matches its pattern.
    var example: SiteURL {
        switch self {
        case .home: .home
        case .stories: .stories(actor: "maya.home.test")
        case .story: .story(did: "did:plc:abc", rkey: "3kxyz")
        case .profile: .profile(actor: "did:plc:abc")
        case .create: .create
        case .createInspect: .createInspect
        case .placesData: .placesData
        case .manifest: .manifest
        case .share: .share
        case .healthz: .healthz
        case .readyz: .readyz
        case .metrics: .metrics
        case .login: .login
        case .logout: .logout
        case .authCallback: .authCallback
        case .clientMetadata: .clientMetadata
        case .deleteStory: .deleteStory(did: "did:plc:abc", rkey: "3kxyz")
        case .storiesData: .storiesData(actor: "did:plc:abc")
        case .seen: .seen
        case .kiosk: .kiosk
        case .kioskData: .kioskData
        case .welcome: .welcome
        case .invite: .invite
        case .join: .join(token: "abc")
        case .favorite: .favorite(did: "did:plc:abc", rkey: "3kxyz")
        case .comments: .comments(did: "did:plc:abc", rkey: "3kxyz")
        case .deleteComment: .deleteComment(did: "did:plc:abc", rkey: "3kxyz")
        case .commentsData: .commentsData(did: "did:plc:abc", rkey: "3kxyz")
        case .storyPreview: .storyPreview(did: "did:plc:abc", rkey: "3kxyz")
        case .storyBlurred: .storyBlurred(did: "did:plc:abc", rkey: "3kxyz")
        case .report: .report
        case .mute: .mute(actor: "did:plc:abc")
        case .block: .block(actor: "did:plc:abc")
        case .muted: .muted
        case .activity: .activity
        case .adminReports: .adminReports
        case .admin: .admin
        case .memories: .memories(years: 1)
        case .kioskSettings: .kioskSettings
        case .kioskQR: .kioskQR
        case .storyQR: .storyQR(did: "did:plc:abc", rkey: "3kxyz")
        }
    }
}
