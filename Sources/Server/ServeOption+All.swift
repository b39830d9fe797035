import App
import Backups
import Foundation
import HTTPServer
import Logging

extension ServeOption {
    /// Every `serve` option, in `help`'s order.
    static let all: [ServeOption] =
        [
            ServeOption("host", .value("ADDRESS"), help: ["address to listen on (default 127.0.0.1)"]) { config, value in config.host = value },
            ServeOption("port", .value("N"), help: ["port to listen on (default 8080; 0 = any free port)"]) {
                config, value throws(Command.UsageError) in
                config.port = try number(value, "--port", UInt16.min...UInt16.max, "--port takes 0 to 65535")
            },
            ServeOption("data", .value("DIR"), help: ["data directory for SQLite and blobs (default ./data)"]) { config, value in
                config.dataDirectory = value
            },
            ServeOption("key-file", .value("PATH"), help: ["the sealing key (default: KEYDIR/<the data directory's key id>.key)"]) {
                config, value in config.keyFile = value
            },
            ServeOption(
                "key-dir", .value("DIR"), help: ["where sealing keys live (default ~/.config/grain-stories/keys); keep it out of backups"]
            ) { config, value in config.keyDirectory = value },
            ServeOption("allow-key-in-data", .nothing, help: ["accept a key file inside the data directory"]) { config, _ in
                config.allowKeyInData = true
            },
            ServeOption("demo", .nothing, help: ["seed a demo household into an empty data directory"]) { config, _ in config.demo = true },
            ServeOption("demo-photos", .value("DIR"), help: ["sample photographs for --demo (default ./.build/demo-photos)"]) { config, value in
                config.demoPhotosDirectory = value
            },
            ServeOption(
                "appview", .value("URL"), help: ["use a remote hatk server (e.g. https://grain.social); turns the embedded backend off"]
            ) { config, value throws(Command.UsageError) in
                config.appview = try httpURL(value, "--appview needs an http(s) URL, got \(value)")
            },
            ServeOption("public-url", .value("URL"), help: ["the origin browsers use to reach this server"]) { config, value in
                config.publicURL = value
            },
            ServeOption("handle-domain", .value("NAME"), help: ["domain of household handles (default home.test)"]) { config, value in
                config.handleDomain = value
            },
            ServeOption("household-name", .value("TEXT"), help: [#"the household's name, on the page strangers see (e.g. "The Costas")"#]) {
                config, value throws(Command.UsageError) in config.householdName = try text(value, "--household-name", 1...80)
            },
            ServeOption(
                "household-contact", .value("TEXT"),
                help: [#"how a stranger reaches the owner, on the front door and /help (e.g. "Ask Ana: ana@example.com")"#]
            ) { config, value throws(Command.UsageError) in config.householdContact = try text(value, "--household-contact", 1...200) },
            ServeOption("templates", .value("DIR"), help: ["HTML templates (default ./Templates)"]) { config, value in
                config.templatesDirectory = value
            },
            ServeOption("public", .value("DIR"), help: ["static files (default ./Public)"]) { config, value in config.publicDirectory = value },
            ServeOption("upstream-timeout", .value("S"), help: ["seconds one call to the hatk server may take (default 10)"]) {
                config, value throws(Command.UsageError) in
                guard let seconds = Double(value), seconds > 0 else {
                    throw Command.UsageError(description: "--upstream-timeout takes a positive number of seconds")
                }
                config.upstreamTimeout = seconds
            },
            ServeOption("dev", .nothing, help: ["re-read templates and static files when they change"]) { config, _ in config.development = true },
            ServeOption("geocoder", .value("KIND"), help: ["offline (default, GeoNames table), nominatim, or none"]) {
                config, value throws(Command.UsageError) in
                guard let choice = ServeConfiguration.GeocoderChoice(rawValue: value) else {
                    throw Command.UsageError(description: "--geocoder is offline, nominatim or none, not \(value)")
                }
                config.geocoder = choice
            },
            ServeOption("nominatim-url", .value("URL"), help: ["the Nominatim server for --geocoder nominatim"]) {
                config, value throws(Command.UsageError) in
                guard let url = URL(string: value), url.scheme == "https" || url.scheme == "http" else {
                    throw Command.UsageError(description: "--nominatim-url needs an http(s) URL")
                }
                config.nominatimURL = url
            },
            ServeOption("places", .value("FILE"), help: ["the place table (default ./.build/places/cities1000.csv)"]) { config, value in
                config.placesCSV = value
            },
            ServeOption(
                "place-names", .value("FILE"), help: ["the create form's place search table (default ./.build/places/place-names.csv)"]
            ) { config, value in config.placeNamesCSV = value },
            ServeOption("max-photo-bytes", .value("N"), help: ["published photos fit N bytes (default 900000, at most 5000000)"]) {
                config, value throws(Command.UsageError) in
                config.maxPhotoBytes = try number(value, "--max-photo-bytes", 100_000...5_000_000)
            },
            ServeOption(
                "max-video-bytes", .value("N"),
                help: [
                    "the largest clip a member may upload (default 200000000); clips become 15-second",
                    "stories, in the embedded household only (Grain accepts photos only)",
                ]
            ) { config, value throws(Command.UsageError) in
                config.maxVideoBytes = try number(value, "--max-video-bytes", 1_000_000...4_000_000_000)
            },
            ServeOption(
                "demo-extra-members", .value("N"), layered: false, help: ["add N more demo members with one story each (benchmarks)"]
            ) { config, value throws(Command.UsageError) in
                config.demoExtraMembers = try number(value, "--demo-extra-members", 0...500)
            },
            ServeOption(
                "demo-archive-stories", .value("N"), layered: false,
                help: ["add N more demo stories over past days, ~500 KB photo each (benchmarks)"]
            ) { config, value throws(Command.UsageError) in
                config.demoArchiveStories = try number(value, "--demo-archive-stories", 0...20_000)
            },
            ServeOption(
                "visibility", .value("WHO"),
                help: [
                    "household (default): only signed-in members see the stories, photos and",
                    "places; public: anyone who reaches the server does (not with --appview, whose",
                    "stories are public on the network)",
                ]
            ) { config, value throws(Command.UsageError) in
                guard let audience = Audience(rawValue: value) else {
                    throw Command.UsageError(description: "--visibility takes household or public")
                }
                config.visibility = audience
            },
            // Below a second only for soak benchmarks, which turn thousands of slides in minutes.
            ServeOption("story-seconds", .value("S"), help: ["how long each photo shows before the viewer moves on (default 5)"]) {
                config, value throws(Command.UsageError) in
                config.storySeconds = try number(value, "--story-seconds", 0.2...600, "--story-seconds takes 0.2 to 600 seconds")
            },
            ServeOption(
                "kiosk-frame-ancestors", .value("ORIGINS"), help: ["space-separated origins allowed to frame /kiosk (default: none)"]
            ) { config, value throws(Command.UsageError) in
                let origins = value.split(separator: " ").map(String.init)
                guard origins.allSatisfy(ServeConfiguration.isFrameAncestor) else {
                    throw Command.UsageError(description: "--kiosk-frame-ancestors takes origins like https://home.example")
                }
                config.kioskFrameAncestors = origins
            },
            ServeOption("uploads-per-minute", .value("N"), help: ["photos one client address may post per minute (default 30)"]) {
                config, value throws(Command.UsageError) in
                config.uploadsPerMinute = try number(value, "--uploads-per-minute", 1...100_000)
            },
            ServeOption("image-workers", .value("N"), help: ["photos processed at once (default: one per core)"]) {
                config, value throws(Command.UsageError) in
                config.imageWorkers = try number(value, "--image-workers", 1...256)
            },
            ServeOption("upload-queue", .value("N"), help: ["photos that may wait for a worker before uploads get 503 (default 16)"]) {
                config, value throws(Command.UsageError) in
                config.imageQueue = try number(value, "--upload-queue", 0...10_000)
            },
        ] + deployment

    /// The options of a deployment: proxies, shared sessions, backups, logs and metrics.
    private static let deployment: [ServeOption] = [
        ServeOption("behind-tls-proxy", .nothing, section: .deployment, help: ["a TLS proxy serves us over HTTPS: secure cookies, https links"]) {
            config, _ in config.behindTLSProxy = true
        },
        ServeOption(
            "trusted-proxy", .value("LIST"), section: .deployment,
            help: [
                "comma-separated addresses or CIDR ranges whose X-Forwarded-* headers are",
                "believed (default: loopback with --behind-tls-proxy, nobody without)",
            ]
        ) { config, value throws(Command.UsageError) in
            let ranges = list(value)
            guard (try? TrustedProxies(parsing: ranges)) != nil else {
                throw Command.UsageError(description: "--trusted-proxy takes addresses or CIDR ranges such as 10.0.0.0/8")
            }
            config.trustedProxies = ranges
        },
        ServeOption(
            "allowed-host", .value("LIST"), section: .deployment,
            help: [
                "comma-separated names or addresses accepted as this server's besides its own",
                "addresses, localhost and its host name (e.g. the Docker host's LAN address)",
            ]
        ) { config, value throws(Command.UsageError) in
            let hosts = list(value)
            guard (try? OriginPolicy(allowedHosts: hosts)) != nil else {
                throw Command.UsageError(description: "--allowed-host takes host names or addresses such as stories.lan or 192.168.1.20")
            }
            config.allowedHosts = hosts
        },
        ServeOption("dpop-nonces", .nothing, section: .deployment, help: ["the embedded sign-in server issues and requires DPoP nonces"]) {
            config, _ in config.requireDPoPNonce = true
        },
        ServeOption(
            "sessions", .value("URL"), section: .deployment,
            help: [
                "keep sessions, sign-ins, seen marks and rate limits in PostgreSQL",
                "(postgres://user@host/db or postgresql:///db?host=/run/postgresql), shared by",
                "several fronts behind one load balancer; every front needs the same sealing key",
            ]
        ) { config, value throws(Command.UsageError) in
            guard value.hasPrefix("postgres://") || value.hasPrefix("postgresql://") else {
                throw Command.UsageError(description: "--sessions takes a PostgreSQL URL (postgres://user@host/db), not \(value.prefix(40))")
            }
            config.sessionsURL = value
        },
        ServeOption(
            "backup-dir", .value("DIR"), section: .deployment,
            help: ["make a backup there every night (and before a start that upgrades the data)"]
        ) { config, value in config.backupDirectory = value },
        ServeOption("backup-keep", .value("N"), section: .deployment, help: ["nightly backups to keep (default 7)"]) {
            config, value throws(Command.UsageError) in
            config.backupKeep = try number(value, "--backup-keep", 1...1000)
        },
        ServeOption("backup-time", .value("HH:MM"), section: .deployment, help: ["when the nightly backup runs, local time (default 03:30)"]) {
            config, value throws(Command.UsageError) in
            guard let schedule = BackupSchedule(parsing: value) else {
                throw Command.UsageError(description: "--backup-time takes a 24-hour time such as 03:30, not \(value)")
            }
            config.backupSchedule = schedule
        },
        ServeOption(
            "log-format", .value("FORMAT"), section: .deployment, help: ["text (default) or json: one object per line, with the request id"]
        ) { config, value throws(Command.UsageError) in
            guard let format = Log.Format(rawValue: value) else {
                throw Command.UsageError(description: "--log-format is text or json, not \(value)")
            }
            config.logFormat = format
        },
        ServeOption(
            "metrics-from", .value("LIST"), section: .deployment,
            help: ["comma-separated addresses or CIDR ranges that may read /metrics (default: off)"]
        ) { config, value throws(Command.UsageError) in
            let ranges = list(value)
            guard !ranges.isEmpty, (try? TrustedProxies(parsing: ranges)) != nil else {
                throw Command.UsageError(description: "--metrics-from takes addresses or CIDR ranges such as 127.0.0.1 or 10.0.0.0/8")
            }
            config.metricsFrom = ranges
        },
    ]
}
