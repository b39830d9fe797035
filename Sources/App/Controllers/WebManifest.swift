import HTTPServer

/// `GET /manifest.webmanifest`: what a phone needs to put the site on its home screen (name, icons, colours), a
/// "New story" shortcut on the icon, and the share target that lets another app share a photo here.
enum WebManifest {
    struct Icon: Encodable {
        var src: String
        var sizes: String
        var type: String
        var purpose: String
    }

    struct Shortcut: Encodable {
        var name: String
        var short_name: String
        var description: String
        var url: String
        var icons: [Icon]
    }

    struct ShareTarget: Encodable {
        struct Params: Encodable {
            struct Files: Encodable {
                var name: String
                var accept: [String]
            }
            var files: [Files]
        }
        var action: String
        var method: String
        var enctype: String
        var params: Params
    }

    struct Manifest: Encodable {
        var name = "Grain Stories"
        var short_name = "Stories"
        var description = "Photo stories that last 24 hours, for the household."
        var id = "/"
        var start_url = "/"
        var scope = "/"
        var display = "standalone"
        var background_color = "#fafafc"
        var theme_color = "#85a1ff"
        var icons: [Icon]
        var shortcuts: [Shortcut]
        var share_target: ShareTarget
    }

    /// The photo formats a share may carry: what the create form accepts.
    static let accepted = ["image/*", ".heic", ".heif", ".avif", ".webp"]

    static let manifest: Manifest = {
        let icons = [
            Icon(src: "/static/icons/grain-192.png", sizes: "192x192", type: "image/png", purpose: "any"),
            Icon(src: "/static/icons/grain-512.png", sizes: "512x512", type: "image/png", purpose: "any"),
            // The art sits inside the middle 80%, so launchers may crop the same image to their shape.
            Icon(src: "/static/icons/grain-512.png", sizes: "512x512", type: "image/png", purpose: "maskable"),
        ]
        return Manifest(
            icons: icons,
            shortcuts: [
                Shortcut(
                    name: "New story", short_name: "New story", description: "Post a photo to your story",
                    url: SiteURL.create.path, icons: [icons[0]])
            ],
            share_target: ShareTarget(
                action: SiteURL.share.path, method: "POST", enctype: "multipart/form-data",
                params: .init(files: [.init(name: "photo", accept: accepted)])))
    }()

    static func respond(_ context: RequestContext) async throws -> Response {
        var response = Response.json(manifest)
        response.headers["Content-Type"] = "application/manifest+json"
        response.headers["Cache-Control"] = "public, max-age=3600"
        return response
    }
}
