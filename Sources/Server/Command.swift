import Foundation
import HTTPServer

/// Parses `grain-stories` arguments into a command; errors carry the usage text.
public enum Command: Sendable {
    case serve(ServeConfiguration)
    /// `users add NAME`: creates a household account (handle `NAME.<domain>`) with a password.
    case addUser(AddUser)
    /// `image process IN OUT [--max-bytes N] [--places FILE]`
    case processImage(input: String, output: String, maxBytes: Int, placesCSV: String)
    /// `h3 [--res N]`: `lat,lng` lines on stdin, one cell per line out.
    case h3(resolution: Int)
    case help

    public struct AddUser: Sendable, Equatable {
        public var name: String
        public var displayName: String?
        public var passwordFromStdin = false
        public var dataDirectory = "./data"
        public var keyFile: String?
        public var keyDirectory: String?
        public var handleDomain = "home.test"
    }

    public struct UsageError: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    public static let usage = """
        Usage: grain-stories serve [options]
               grain-stories users add NAME [--display-name TEXT] [--password-stdin] [--data DIR] [--key-dir DIR] [--handle-domain NAME]
               grain-stories image process IN OUT [--max-bytes N] [--places FILE]
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
          --templates DIR       HTML templates (default ./Templates)
          --public DIR          static files (default ./Public)
          --upstream-timeout S  seconds one call to the hatk server may take (default 10)
          --dev                 re-read templates and static files when they change
          --geocoder KIND       offline (default, GeoNames table), nominatim, or none
          --nominatim-url URL   the Nominatim server for --geocoder nominatim
          --places FILE         the place table (default ./.build/places/cities1000.csv)
          --max-photo-bytes N   published photos fit N bytes (default 900000, at most 5000000)
          --demo-extra-members N  add N more demo members with one story each (benchmarks)
          --story-seconds S     how long each photo shows before the viewer moves on (default 5)
          --kiosk-frame-ancestors ORIGINS  space-separated origins allowed to frame /kiosk (default: none)
          --uploads-per-minute N  photos one client address may post per minute (default 30)
          --image-workers N     photos processed at once (default: one per core)
          --upload-queue N      photos that may wait for a worker before uploads get 503 (default 16)

        Every serve option can also be set in the environment: --public-url is GRAIN_STORIES_PUBLIC_URL,
        --demo is GRAIN_STORIES_DEMO=true. Command-line flags win.
          --behind-tls-proxy    a TLS proxy serves us over HTTPS: secure cookies, https links
          --trusted-proxy LIST  comma-separated addresses or CIDR ranges whose X-Forwarded-* headers are
                                believed (default 127.0.0.0/8,::1/128)
          --allowed-host LIST   comma-separated names or addresses accepted as this server's besides its own
                                addresses, localhost and its host name (e.g. the Docker host's LAN address)
          --dpop-nonces         the embedded sign-in server issues and requires DPoP nonces
        """

    /// Each serve option may also come from the environment: `--public-url` is `GRAIN_STORIES_PUBLIC_URL`.
    /// Flags on the command line win.
    static let environmentOptions = [
        "--host", "--port", "--data", "--key-file", "--key-dir", "--allow-key-in-data", "--public-url", "--appview", "--demo", "--dev",
        "--demo-photos", "--handle-domain",
        "--templates", "--public", "--upstream-timeout", "--behind-tls-proxy", "--dpop-nonces", "--geocoder",
        "--nominatim-url", "--places", "--max-photo-bytes", "--story-seconds", "--kiosk-frame-ancestors",
        "--uploads-per-minute", "--image-workers", "--upload-queue", "--trusted-proxy", "--allowed-host",
    ]
    static let switches: Set<String> = ["--demo", "--dev", "--behind-tls-proxy", "--dpop-nonces", "--allow-key-in-data"]

    static func environmentVariable(for option: String) -> String {
        "GRAIN_STORIES_" + option.dropFirst(2).uppercased().replacingOccurrences(of: "-", with: "_")
    }

    static func environmentArguments(_ environment: [String: String]) throws(UsageError) -> [String] {
        var arguments: [String] = []
        for option in environmentOptions {
            guard let value = environment[environmentVariable(for: option)] else { continue }
            if switches.contains(option) {
                switch value.lowercased() {
                case "1", "true", "yes", "on": arguments.append(option)
                case "0", "false", "no", "off", "": break
                default: throw UsageError(description: "\(environmentVariable(for: option)) must be true or false, not \(value)")
                }
            } else {
                arguments += [option, value]
            }
        }
        return arguments
    }

    public static func parse(_ arguments: [String], environment: [String: String] = [:]) throws(UsageError) -> Command {
        guard let verb = arguments.first else { return .help }
        switch verb {
        case "help", "--help", "-h": return .help
        case "serve": return .serve(try parseServe(try environmentArguments(environment) + Array(arguments.dropFirst())))
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
            guard arguments.count >= 3, arguments[1] == "add" else {
                throw UsageError(description: "usage: grain-stories users add NAME [--display-name TEXT] [--password-stdin]")
            }
            return .addUser(try parseAddUser(Array(arguments.dropFirst(2))))
        default: throw UsageError(description: "unknown command \(verb)\n\n\(usage)")
        }
    }

    static func parseAddUser(_ arguments: [String]) throws(UsageError) -> AddUser {
        var rest = arguments[...]
        guard let name = rest.popFirst(), !name.hasPrefix("--") else { throw UsageError(description: "users add needs a NAME") }
        var command = AddUser(name: name.lowercased())
        func value(_ flag: String) throws(UsageError) -> String {
            guard let v = rest.popFirst() else { throw UsageError(description: "\(flag) needs a value") }
            return v
        }
        while let flag = rest.popFirst() {
            switch flag {
            case "--display-name": command.displayName = try value(flag)
            case "--password-stdin": command.passwordFromStdin = true
            case "--data": command.dataDirectory = try value(flag)
            case "--key-file": command.keyFile = try value(flag)
            case "--key-dir": command.keyDirectory = try value(flag)
            case "--handle-domain": command.handleDomain = try value(flag)
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
            case "--appview":
                let raw = try value(flag)
                guard let url = URL(string: raw), url.scheme == "https" || url.scheme == "http", url.host != nil else {
                    throw UsageError(description: "--appview needs an http(s) URL, got \(raw)")
                }
                config.appview = url
            case "--public-url": config.publicURL = try value(flag)
            case "--handle-domain": config.handleDomain = try value(flag)
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
            case "--max-photo-bytes":
                guard let n = Int(try value(flag)), (100_000...5_000_000).contains(n) else {
                    throw UsageError(description: "--max-photo-bytes takes 100000 to 5000000")
                }
                config.maxPhotoBytes = n
            case "--story-seconds":
                // Below a second only for soak benchmarks, which turn thousands of slides in minutes.
                guard let seconds = Double(try value(flag)), (0.2...600).contains(seconds) else {
                    throw UsageError(description: "--story-seconds takes 0.2 to 600 seconds")
                }
                config.storySeconds = seconds
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
            default: throw UsageError(description: "unknown option \(flag)\n\n\(usage)")
            }
        }
        return config
    }
}
