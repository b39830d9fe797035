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

    /// The commands, then every serve option from ``ServeOption/all``.
    public static var usage: String {
        let options = { (section: ServeOption.Section) in
            ServeOption.all.filter { $0.section == section }.flatMap(\.usageLines).joined(separator: "\n")
        }
        return commandsUsage + "\n\n" + options(.everyday) + "\n\n" + layeringUsage + "\n" + options(.deployment)
    }

    static let commandsUsage = """
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
        """

    static let layeringUsage = """
        Every serve option can also be set in the environment: --public-url is GRAIN_STORIES_PUBLIC_URL,
        --demo is GRAIN_STORIES_DEMO=true; and in a configuration file as `public-url = ...`, `demo = true`:
          --config FILE         read options from FILE (default /etc/grain-stories/grain-stories.conf when it
                                exists; also GRAIN_STORIES_CONFIG). Flags win over the environment, which wins
                                over the file.
        """

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

    /// Applies each flag (and its value) through its entry in ``ServeOption/all``; later flags win.
    static func parseServe(_ arguments: [String]) throws(UsageError) -> ServeConfiguration {
        var config = ServeConfiguration()
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let option = ServeOption.byFlag[flag] else { throw UsageError(description: "unknown option \(flag)\n\n\(usage)") }
            var value = ""
            if !option.isSwitch {
                guard let next = rest.popFirst(), !next.hasPrefix("--") else { throw UsageError(description: "\(flag) needs a value") }
                value = next
            }
            try option.apply(&config, value)
        }
        return config
    }
}
