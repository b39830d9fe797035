import App
import Backups
import Foundation
import HTTPServer
import Logging

/// Parses `grain-stories` arguments into a command; errors carry the usage text.
public enum Command: Sendable {
    case serve(ServeConfiguration)
    /// `users add NAME`: creates a household account (handle `NAME.<domain>`) with a password.
    case addUser(AddUser)
    /// `users list|disable|enable|remove|restore|quota|reset-password`: the owner's administration of members.
    case members(MembersCommand)
    /// `backup --data DIR --to DEST`
    case backup(dataDirectory: String, destination: String)
    /// `backup verify SRC`
    case verifyBackup(source: String)
    /// `restore --from SRC --data EMPTYDIR [--without-key]`
    case restore(RestoreCommand)
    /// `image process IN OUT [--max-bytes N] [--places FILE]`
    case processImage(input: String, output: String, maxBytes: Int, placesCSV: String)
    /// `video process IN OUT [--start S]`: a clip made into a story's MP4 as an upload would be.
    case processVideo(input: String, output: String, start: Double)
    /// `h3 [--res N]`: `lat,lng` lines on stdin, one cell per line out.
    case h3(resolution: Int)
    case help

    public struct AddUser: Sendable {
        public var name: String
        public var displayName: String?
        public var passwordFromStdin = false
        /// The data, the key and the templates (the front is built to add the account): serve's configuration file
        /// and environment beneath the command's flags (`parseHousehold`).
        public var configuration: ServeConfiguration
    }

    public struct UsageError: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    public static let usage = """
        Usage: grain-stories serve [options]
               grain-stories users add NAME [--display-name TEXT] [--password-stdin] [--data DIR] [--key-dir DIR] [--config FILE]
               grain-stories users list|disable NAME|enable NAME|remove NAME|restore NAME|reset-password NAME [--data DIR] [--key-dir DIR]
               grain-stories users quota NAME BYTES|none [--data DIR] [--key-dir DIR]   (BYTES may end in K, M or G)
                                   (every users command reads serve's configuration file and environment, beneath its flags)
               grain-stories backup --data DIR --to DEST      (while the server keeps serving)
               grain-stories backup verify SRC
               grain-stories restore --from SRC --data EMPTYDIR [--without-key]
               grain-stories image process IN OUT [--max-bytes N] [--places FILE]
               grain-stories video process IN OUT [--start SECONDS]   (a clip into a 15-second story MP4)
               grain-stories h3 [--res N]          (reads lat,lng lines on standard input)

          --host ADDRESS        address to listen on (default 127.0.0.1)
          --port N              port to listen on (default 8080; 0 = any free port)
          --data DIR            data directory for SQLite and blobs (default ./data)
          --key-file PATH       the sealing key (default: KEYDIR/<the data directory's key id>.key)
          --key-dir DIR         where sealing keys live (default ~/.config/grain-stories/keys); keep it out of backups
          --allow-key-in-data   accept a key file inside the data directory
          --demo                seed a demo household into an empty data directory
          --demo-photos DIR     sample photographs for --demo (default ./.build/demo-photos)
          --appview URL         use a remote hatk server (e.g. https://grain.social); turns the embedded backend off
          --public-url URL      the origin browsers use to reach this server
          --handle-domain NAME  domain of household handles (default home.test)
          --household-name TEXT the household's name, on the page strangers see (e.g. "The Costas")
          --templates DIR       HTML templates (default ./Templates)
          --public DIR          static files (default ./Public)
          --upstream-timeout S  seconds one call to the hatk server may take (default 10)
          --dev                 re-read templates and static files when they change
          --geocoder KIND       offline (default, GeoNames table), nominatim, or none
          --nominatim-url URL   the Nominatim server for --geocoder nominatim
          --places FILE         the place table (default ./.build/places/cities1000.csv)
          --place-names FILE    the create form's place search table (default ./.build/places/place-names.csv)
          --max-photo-bytes N   published photos fit N bytes (default 900000, at most 5000000)
          --max-video-bytes N   the largest clip a member may upload (default 200000000); clips become 15-second
                                stories, in the embedded household only (Grain accepts photos only)
          --demo-extra-members N  add N more demo members with one story each (benchmarks)
          --demo-archive-stories N  add N more demo stories over past days, ~500 KB photo each (benchmarks)
          --visibility WHO      household (default): only signed-in members see the stories, photos and
                                places; public: anyone who reaches the server does (not with --appview, whose
                                stories are public on the network)
          --story-seconds S     how long each photo shows before the viewer moves on (default 5)
          --kiosk-frame-ancestors ORIGINS  space-separated origins allowed to frame /kiosk (default: none)
          --uploads-per-minute N  photos one client address may post per minute (default 30)
          --image-workers N     photos processed at once (default: one per core)
          --upload-queue N      photos that may wait for a worker before uploads get 503 (default 16)

        Every serve option can also be set in the environment: --public-url is GRAIN_STORIES_PUBLIC_URL,
        --demo is GRAIN_STORIES_DEMO=true; and in a configuration file as `public-url = ...`, `demo = true`:
          --config FILE         read options from FILE (default /etc/grain-stories/grain-stories.conf when it
                                exists; also GRAIN_STORIES_CONFIG). Flags win over the environment, which wins
                                over the file.
          --behind-tls-proxy    a TLS proxy serves us over HTTPS: secure cookies, https links
          --trusted-proxy LIST  comma-separated addresses or CIDR ranges whose X-Forwarded-* headers are
                                believed (default: loopback with --behind-tls-proxy, nobody without)
          --allowed-host LIST   comma-separated names or addresses accepted as this server's besides its own
                                addresses, localhost and its host name (e.g. the Docker host's LAN address)
          --dpop-nonces         the embedded sign-in server issues and requires DPoP nonces
          --sessions URL        keep sessions, sign-ins, seen marks and rate limits in PostgreSQL
                                (postgres://user@host/db or postgresql:///db?host=/run/postgresql), shared by
                                several fronts behind one load balancer; every front needs the same sealing key
          --backup-dir DIR      make a backup there every night (and before a start that upgrades the data)
          --backup-keep N       nightly backups to keep (default 7)
          --backup-time HH:MM   when the nightly backup runs, local time (default 03:30)
          --log-format FORMAT   text (default) or json: one object per line, with the request id
          --metrics-from LIST   comma-separated addresses or CIDR ranges that may read /metrics (default: off)
        """

    /// Each serve option may also come from the environment: `--public-url` is `GRAIN_STORIES_PUBLIC_URL`.
    /// Flags on the command line win.
    static let environmentOptions = [
        "--host", "--port", "--data", "--key-file", "--key-dir", "--allow-key-in-data", "--public-url", "--appview", "--demo", "--dev",
        "--demo-photos", "--handle-domain", "--household-name",
        "--templates", "--public", "--upstream-timeout", "--behind-tls-proxy", "--dpop-nonces", "--geocoder",
        "--nominatim-url", "--places", "--place-names", "--max-photo-bytes", "--max-video-bytes", "--story-seconds", "--visibility",
        "--kiosk-frame-ancestors",
        "--uploads-per-minute", "--image-workers", "--upload-queue", "--trusted-proxy", "--allowed-host",
        "--sessions", "--backup-dir", "--backup-keep", "--backup-time", "--log-format", "--metrics-from",
    ]
    static let switches: Set<String> = ["--demo", "--dev", "--behind-tls-proxy", "--dpop-nonces", "--allow-key-in-data"]

    static func environmentVariable(for option: String) -> String {
        "GRAIN_STORIES_" + option.dropFirst(2).uppercased().replacingOccurrences(of: "-", with: "_")
    }

    /// - Parameter defaultConfig: the configuration file `serve` reads when it exists and none is named.
    public static func parse(
        _ arguments: [String], environment: [String: String] = [:], defaultConfig: String? = Command.defaultConfigPath
    ) throws(UsageError) -> Command {
        guard let verb = arguments.first else { return .help }
        switch verb {
        case "help", "--help", "-h": return .help
        case "serve":
            return .serve(
                try parseServe(try layeredServeArguments(Array(arguments.dropFirst()), environment: environment, defaultConfig: defaultConfig)))
        case "image":
            guard arguments.count >= 4, arguments[1] == "process" else {
                throw UsageError(description: "usage: grain-stories image process IN OUT [--max-bytes N] [--places FILE]")
            }
            var maxBytes = 900_000
            var places = "./.build/places/cities1000.csv"
            var rest = arguments.dropFirst(4)
            while let flag = rest.popFirst() {
                guard let value = rest.popFirst() else { throw UsageError(description: "\(flag) needs a value") }
                switch flag {
                case "--max-bytes":
                    guard let n = Int(value), (10_000...5_000_000).contains(n) else {
                        throw UsageError(description: "--max-bytes takes 10000 to 5000000")
                    }
                    maxBytes = n
                case "--places": places = value
                default: throw UsageError(description: "unknown option \(flag)")
                }
            }
            return .processImage(input: arguments[2], output: arguments[3], maxBytes: maxBytes, placesCSV: places)
        case "video":
            guard arguments.count == 4 || (arguments.count == 6 && arguments[4] == "--start"), arguments[1] == "process" else {
                throw UsageError(description: "usage: grain-stories video process IN OUT [--start SECONDS]")
            }
            var start = 0.0
            if arguments.count == 6 {
                guard let seconds = Double(arguments[5]), seconds >= 0 else { throw UsageError(description: "--start takes seconds") }
                start = seconds
            }
            return .processVideo(input: arguments[2], output: arguments[3], start: start)
        case "h3":
            var resolution = 10
            if arguments.count == 3, arguments[1] == "--res" {
                guard let r = Int(arguments[2]), (0...15).contains(r) else { throw UsageError(description: "--res takes 0 to 15") }
                resolution = r
            } else if arguments.count != 1 {
                throw UsageError(description: "usage: grain-stories h3 [--res N]")
            }
            return .h3(resolution: resolution)
        case "users":
            if arguments.count >= 2, arguments[1] != "add" {
                return .members(try parseMembers(Array(arguments.dropFirst()), environment: environment, defaultConfig: defaultConfig))
            }
            guard arguments.count >= 3, arguments[1] == "add" else {
                throw UsageError(description: "usage: grain-stories users add NAME [--display-name TEXT] [--password-stdin]")
            }
            return .addUser(try parseAddUser(Array(arguments.dropFirst(2)), environment: environment, defaultConfig: defaultConfig))
        case "backup": return try parseBackup(Array(arguments.dropFirst()))
        case "restore": return .restore(try parseRestore(Array(arguments.dropFirst())))
        default: throw UsageError(description: "unknown command \(verb)\n\n\(usage)")
        }
    }

    /// `users add NAME [--display-name TEXT] [--password-stdin]` and the household flags (`parseHousehold`).
    static func parseAddUser(
        _ arguments: [String], environment: [String: String] = [:], defaultConfig: String? = nil
    ) throws(UsageError) -> AddUser {
        let (configuration, words) = try parseHousehold(arguments, environment: environment, defaultConfig: defaultConfig)
        var rest = words[...]
        guard let name = rest.popFirst(), !name.hasPrefix("--") else { throw UsageError(description: "users add needs a NAME") }
        var command = AddUser(name: name.lowercased(), configuration: configuration)
        while let flag = rest.popFirst() {
            switch flag {
            case "--display-name":
                guard let value = rest.popFirst() else { throw UsageError(description: "\(flag) needs a value") }
                command.displayName = value
            case "--password-stdin": command.passwordFromStdin = true
            default: throw UsageError(description: "unknown option \(flag)")
            }
        }
        return command
    }

    static func parseServe(_ arguments: [String]) throws(UsageError) -> ServeConfiguration {
        var config = ServeConfiguration()
        var rest = arguments[...]
        func value(_ flag: String) throws(UsageError) -> String {
            guard let v = rest.popFirst(), !v.hasPrefix("--") else { throw UsageError(description: "\(flag) needs a value") }
            return v
        }
        func list(_ flag: String) throws(UsageError) -> [String] {
            try value(flag).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        func count(_ flag: String, _ range: ClosedRange<Int>) throws(UsageError) -> Int {
            guard let n = Int(try value(flag)), range.contains(n) else {
                throw UsageError(description: "\(flag) takes \(range.lowerBound) to \(range.upperBound)")
            }
            return n
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--host": config.host = try value(flag)
            case "--port":
                guard let port = UInt16(try value(flag)) else { throw UsageError(description: "--port takes 0 to 65535") }
                config.port = port
            case "--data": config.dataDirectory = try value(flag)
            case "--key-file": config.keyFile = try value(flag)
            case "--key-dir": config.keyDirectory = try value(flag)
            case "--allow-key-in-data": config.allowKeyInData = true
            case "--demo": config.demo = true
            case "--demo-photos": config.demoPhotosDirectory = try value(flag)
            case "--demo-extra-members":
                guard let n = Int(try value(flag)), (0...500).contains(n) else {
                    throw UsageError(description: "--demo-extra-members takes 0 to 500")
                }
                config.demoExtraMembers = n
            case "--demo-archive-stories":
                guard let n = Int(try value(flag)), (0...20_000).contains(n) else {
                    throw UsageError(description: "--demo-archive-stories takes 0 to 20000")
                }
                config.demoArchiveStories = n
            case "--appview":
                let raw = try value(flag)
                guard let url = URL(string: raw), url.scheme == "https" || url.scheme == "http", url.host != nil else {
                    throw UsageError(description: "--appview needs an http(s) URL, got \(raw)")
                }
                config.appview = url
            case "--public-url": config.publicURL = try value(flag)
            case "--handle-domain": config.handleDomain = try value(flag)
            case "--household-name":
                let name = try value(flag).trimmingCharacters(in: .whitespaces)
                guard (1...80).contains(name.count) else { throw UsageError(description: "--household-name takes 1 to 80 characters") }
                config.householdName = name
            case "--templates": config.templatesDirectory = try value(flag)
            case "--public": config.publicDirectory = try value(flag)
            case "--upstream-timeout":
                guard let seconds = Double(try value(flag)), seconds > 0 else {
                    throw UsageError(description: "--upstream-timeout takes a positive number of seconds")
                }
                config.upstreamTimeout = seconds
            case "--dev": config.development = true
            case "--geocoder":
                let raw = try value(flag)
                guard let choice = ServeConfiguration.GeocoderChoice(rawValue: raw) else {
                    throw UsageError(description: "--geocoder is offline, nominatim or none, not \(raw)")
                }
                config.geocoder = choice
            case "--nominatim-url":
                let raw = try value(flag)
                guard let url = URL(string: raw), url.scheme == "https" || url.scheme == "http" else {
                    throw UsageError(description: "--nominatim-url needs an http(s) URL")
                }
                config.nominatimURL = url
            case "--places": config.placesCSV = try value(flag)
            case "--place-names": config.placeNamesCSV = try value(flag)
            case "--max-photo-bytes":
                guard let n = Int(try value(flag)), (100_000...5_000_000).contains(n) else {
                    throw UsageError(description: "--max-photo-bytes takes 100000 to 5000000")
                }
                config.maxPhotoBytes = n
            case "--max-video-bytes":
                guard let n = Int(try value(flag)), (1_000_000...4_000_000_000).contains(n) else {
                    throw UsageError(description: "--max-video-bytes takes 1000000 to 4000000000")
                }
                config.maxVideoBytes = n
            case "--story-seconds":
                // Below a second only for soak benchmarks, which turn thousands of slides in minutes.
                guard let seconds = Double(try value(flag)), (0.2...600).contains(seconds) else {
                    throw UsageError(description: "--story-seconds takes 0.2 to 600 seconds")
                }
                config.storySeconds = seconds
            case "--visibility":
                guard let audience = Audience(rawValue: try value(flag)) else {
                    throw UsageError(description: "--visibility takes household or public")
                }
                config.visibility = audience
            case "--kiosk-frame-ancestors":
                let origins = try value(flag).split(separator: " ").map(String.init)
                guard origins.allSatisfy(ServeConfiguration.isFrameAncestor) else {
                    throw UsageError(description: "--kiosk-frame-ancestors takes origins like https://home.example")
                }
                config.kioskFrameAncestors = origins
            case "--uploads-per-minute": config.uploadsPerMinute = try count(flag, 1...100_000)
            case "--image-workers": config.imageWorkers = try count(flag, 1...256)
            case "--upload-queue": config.imageQueue = try count(flag, 0...10_000)
            case "--behind-tls-proxy": config.behindTLSProxy = true
            case "--trusted-proxy":
                let ranges = try list(flag)
                guard (try? TrustedProxies(parsing: ranges)) != nil else {
                    throw UsageError(description: "--trusted-proxy takes addresses or CIDR ranges such as 10.0.0.0/8")
                }
                config.trustedProxies = ranges
            case "--allowed-host":
                let hosts = try list(flag)
                guard (try? OriginPolicy(allowedHosts: hosts)) != nil else {
                    throw UsageError(description: "--allowed-host takes host names or addresses such as stories.lan or 192.168.1.20")
                }
                config.allowedHosts = hosts
            case "--dpop-nonces": config.requireDPoPNonce = true
            case "--sessions":
                let raw = try value(flag)
                guard raw.hasPrefix("postgres://") || raw.hasPrefix("postgresql://") else {
                    throw UsageError(description: "--sessions takes a PostgreSQL URL (postgres://user@host/db), not \(raw.prefix(40))")
                }
                config.sessionsURL = raw
            case "--backup-dir": config.backupDirectory = try value(flag)
            case "--backup-keep": config.backupKeep = try count(flag, 1...1000)
            case "--backup-time":
                let raw = try value(flag)
                guard let schedule = BackupSchedule(parsing: raw) else {
                    throw UsageError(description: "--backup-time takes a 24-hour time such as 03:30, not \(raw)")
                }
                config.backupSchedule = schedule
            case "--log-format":
                let raw = try value(flag)
                guard let format = Log.Format(rawValue: raw) else { throw UsageError(description: "--log-format is text or json, not \(raw)") }
                config.logFormat = format
            case "--metrics-from":
                let ranges = try list(flag)
                guard !ranges.isEmpty, (try? TrustedProxies(parsing: ranges)) != nil else {
                    throw UsageError(description: "--metrics-from takes addresses or CIDR ranges such as 127.0.0.1 or 10.0.0.0/8")
                }
                config.metricsFrom = ranges
            default: throw UsageError(description: "unknown option \(flag)\n\n\(usage)")
            }
        }
        return config
    }
}
