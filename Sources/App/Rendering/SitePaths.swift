/// The site's fixed paths as templates read them (`{{ site.admin }}`), so no template writes a path of its own: a
/// route that moves in `SiteURL` moves in every form and link with it.
struct SitePaths: Encodable, Sendable {
    var home = SiteURL.home.path
    var login = SiteURL.login.path
    var logout = SiteURL.logout.path
    var create = SiteURL.create.path
    var activity = SiteURL.activity.path
    var muted = SiteURL.muted.path
    var report = SiteURL.report.path
    var kiosk = SiteURL.kiosk.path
    var kioskSettings = SiteURL.kioskSettings.path
    var manifest = SiteURL.manifest.path
    var admin = SiteURL.admin.path
    var adminReports = SiteURL.adminReports.path
    var invite = SiteURL.invite.path
    var help = SiteURL.help.path
}
