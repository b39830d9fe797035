import ATProto
import HTTPServer
import Lexicon
import QRCode

/// The kiosk's QR codes and its settings page: a phone opens the story it just saw on the frame, and a tablet is set
/// up by scanning the address the settings page built.
extension StoryPages {
    /// `GET /profile/<did>/story/<rkey>/qr.svg`: the story's permalink on the origin the kiosk uses. It encodes only
    /// our own permalink path, never text from the request beyond a valid DID and record key.
    func storyQR(_ context: RequestContext) async throws -> Response {
        guard let did = DID.parse(try context.parameter("did")) else { return Self.notFoundImage }
        let rkey = try context.parameter("rkey")
        guard RecordKey.isValid(rkey) else { return Self.notFoundImage }
        return Self.svg(context.origin + SiteURL.story(did: did.rawValue, rkey: rkey).path, title: "Open this story on your phone")
    }

    /// `GET /kiosk/qr.svg?<options>`: the QR code of the kiosk address those options make.
    func kioskQR(_ context: RequestContext) async throws -> Response {
        Self.svg(Self.kioskAddress(KioskOptions(query: context.query), origin: context.origin), title: "This kiosk's address")
    }

    /// `GET /kiosk/settings`: a form (GET, so it needs no token and no script) that builds the kiosk address, shown
    /// as a link and as a QR code to scan with the tablet.
    func kioskSettings(_ context: RequestContext) async throws -> Response {
        let options = KioskOptions(query: context.query)
        // Screens are paired by a household's posting members (a role exists only in the embedded household); a guest,
        // or a remote hatk's member, only builds addresses.
        let canPair = context.role?.posts == true
        let model = KioskSettingsPage.model(
            options, address: Self.kioskAddress(options, origin: context.origin), csrf: canPair ? context.csrf.value : nil)
        return try pages.render("kiosk-settings", title: "Kiosk settings", model: model, form: canPair, context: context)
    }

    static func kioskAddress(_ options: KioskOptions, origin: String) -> String {
        origin + SiteURL.kiosk.with(options.items)
    }

    static func svg(_ text: String, title: String) -> Response {
        guard let code = try? QRCode(text) else { return Self.notFoundImage }
        var response = Response(status: .ok, headers: ["Content-Type": "image/svg+xml"], body: .bytes(Array(code.svg(title: title).utf8)))
        response.headers["Cache-Control"] = "public, max-age=86400"
        response.headers["X-Content-Type-Options"] = "nosniff"
        // Opened on its own, the SVG may run nothing and load nothing.
        response.headers["Content-Security-Policy"] = "default-src 'none'"
        return response
    }
}
