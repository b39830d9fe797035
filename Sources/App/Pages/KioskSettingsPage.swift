/// `/kiosk/settings`: every kiosk option as a form field, the address they make, and its QR code.
enum KioskSettingsPage {
    struct Model: Encodable, Equatable {
        var authors: String
        var showWarned: Bool
        var memories: Bool
        var nightStart: String
        var nightEnd: String
        var clock: Bool
        var overlay: Bool
        var pair: Bool
        /// The kiosk's absolute address, to open or type on the tablet.
        var address: String
        /// The same address as a path, for the link here.
        var kioskHref: String
        var qrHref: String
        /// The pairing form's token; nil for a visitor who may not pair screens (a guest).
        var csrf: String?
        /// Where the pairing form posts.
        var pairHref = SiteURL.screenPairings.path
        /// The options above as the pairing form's one hidden field (the kiosk address's query), so the screen plays
        /// what the address would.
        var kioskQuery: String
        /// The pairing link just made.
        var pairing: Pairing?
    }

    /// A pairing link, shown once: as text and as a QR code for the tablet's camera.
    struct Pairing: Encodable, Equatable {
        var name: String
        var link: String
        var qrHref: String
    }

    static func model(_ options: KioskOptions, address: String, csrf: String?) -> Model {
        Model(
            authors: options.authors ?? "", showWarned: options.showWarned, memories: options.memories,
            nightStart: options.night?.start24 ?? "", nightEnd: options.night?.end24 ?? "", clock: options.clock,
            overlay: options.overlay, pair: options.pair, address: address, kioskHref: SiteURL.kiosk.with(options.items),
            qrHref: SiteURL.kioskQR.with(options.items), csrf: csrf,
            kioskQuery: options.queryString)
    }
}
