import Foundation
import TestSupport
import Testing

@testable import Server

/// `--config FILE` and /etc/grain-stories/grain-stories.conf: the serve flags as `key = value` lines, beneath the
/// environment and the command line.
struct ConfigFileTests {
    func write(_ text: String) -> String {
        let directory = TemporaryDirectory("config")
        let path = directory.path + "/grain-stories.conf"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        return path
    }

    func serve(_ arguments: [String], environment: [String: String] = [:], defaultConfig: String? = nil) throws -> ServeConfiguration {
        guard case .serve(let configuration) = try Command.parse(["serve"] + arguments, environment: environment, defaultConfig: defaultConfig)
        else { throw Command.UsageError(description: "not serve") }
        return configuration
    }

    static let shipped = """
        # grain-stories configuration
        host = 0.0.0.0
        port = 8080
        data = /var/lib/grain-stories
        key-dir = /var/lib/grain-stories-keys

        public-url = "https://stories.example"
        behind-tls-proxy = true
        uploads-per-minute = 12
        """

    @Test("every key of the file sets the flag of its name, switches included")
    func fileSetsOptions() throws {
        let configuration = try serve(["--config", write(Self.shipped)])
        #expect(configuration.host == "0.0.0.0")
        #expect(configuration.port == 8080)
        #expect(configuration.dataDirectory == "/var/lib/grain-stories")
        #expect(configuration.keyDirectory == "/var/lib/grain-stories-keys")
        #expect(configuration.publicURL == "https://stories.example", "quotes around a value are not part of it")
        #expect(configuration.behindTLSProxy)
        #expect(configuration.uploadsPerMinute == 12)
    }

    @Test("flags win over the environment, which wins over the file, switches included")
    func precedence() throws {
        let path = write(Self.shipped)
        let environment = ["GRAIN_STORIES_PORT": "9000", "GRAIN_STORIES_BEHIND_TLS_PROXY": "false", "GRAIN_STORIES_DATA": "/srv/env"]
        let configuration = try serve(["--config", path, "--port", "9100"], environment: environment)
        #expect(configuration.port == 9100, "the flag wins")
        #expect(configuration.dataDirectory == "/srv/env", "the environment wins over the file")
        #expect(!configuration.behindTLSProxy, "a switch the file turns on, the environment turns off")
        #expect(configuration.host == "0.0.0.0", "what only the file says holds")
    }

    @Test("the option table is what help lists and what the environment and the file accept; the benchmark seeds are flags only")
    func optionTable() throws {
        let usage = Command.usage
        for option in ServeOption.all {
            #expect(usage.contains(option.usageLines[0]), "\(option.flag) in help")
        }
        #expect(Set(ServeOption.all.map(\.name)).count == ServeOption.all.count, "each name once")
        #expect(try serve([], environment: ["GRAIN_STORIES_MAX_VIDEO_BYTES": "5000000"]).maxVideoBytes == 5_000_000)
        #expect(try serve(["--config", write("max-video-bytes = 6000000\n")]).maxVideoBytes == 6_000_000)
        #expect(try serve([], environment: ["GRAIN_STORIES_DEMO_EXTRA_MEMBERS": "3"]).demoExtraMembers == 0)
        let error = #expect(throws: Command.UsageError.self) { try serve(["--config", write("demo-extra-members = 3\n")]) }
        #expect(error?.description.contains("unknown key") == true)
        #expect(try serve(["--demo-extra-members", "3"]).demoExtraMembers == 3)
    }

    @Test("the default file is read only when it exists; GRAIN_STORIES_CONFIG names another")
    func defaultFile() throws {
        let path = write(Self.shipped)
        #expect(try serve([], defaultConfig: path).port == 8080)
        #expect(try serve([], defaultConfig: "/nonexistent/grain-stories.conf").host == "127.0.0.1", "no file, the built-in defaults")
        let other = write("port = 8181\n")
        #expect(try serve([], environment: ["GRAIN_STORIES_CONFIG": other], defaultConfig: path).port == 8181)
        #expect(try serve(["--config", other], defaultConfig: path).host == "127.0.0.1", "only the named file is read")
    }

    @Test("a bad file is refused with its name and line: unknown key, no `=`, a key twice, a switch not true or false")
    func badFiles() throws {
        let cases = [
            ("port = 8080\nbogus = 1\n", "line 2"),
            ("port 8080\n", "line 1"),
            ("port = 1\nport = 2\n", "set twice"),
            ("demo = maybe\n", "true or false"),
            ("port = http\n", "--port takes"),
        ]
        for (text, expected) in cases {
            let path = write(text)
            let error = #expect(throws: Command.UsageError.self, "\(text)") { try serve(["--config", path]) }
            #expect(error?.description.contains(expected) == true, "\(error?.description ?? "")")
        }
        let missing = #expect(throws: Command.UsageError.self) { try serve(["--config", "/nonexistent/x.conf"]) }
        #expect(missing?.description.contains("/nonexistent/x.conf") == true)
        let big = write(String(repeating: "# padding\n", count: 8000))
        #expect(throws: Command.UsageError.self) { try serve(["--config", big]) }
    }

    @Test("--sessions takes only a PostgreSQL URL, from a flag, the environment or the file")
    func sessionsURL() throws {
        #expect(try serve(["--sessions", "postgres://front@db.lan/stories"]).sessionsURL == "postgres://front@db.lan/stories")
        #expect(try serve([], environment: ["GRAIN_STORIES_SESSIONS": "postgresql:///s?host=/run/postgresql"]).sessionsURL != nil)
        #expect(try serve(["--config", write("sessions = postgres://f@db/s\n")]).sessionsURL == "postgres://f@db/s")
        #expect(throws: Command.UsageError.self) { try serve(["--sessions", "mysql://x"]) }
    }

    /// What a `users` command opens the data with.
    func users(_ words: [String], environment: [String: String] = [:], defaultConfig: String? = nil) throws -> ServeConfiguration {
        switch try Command.parse(["users"] + words, environment: environment, defaultConfig: defaultConfig) {
        case .addUser(let command): return command.configuration
        case .members(let command): return command.configuration
        default: throw Command.UsageError(description: "not a users command: \(words)")
        }
    }

    @Test("every users command finds the data, the key and the templates where the installed server's file puts them; its flags win")
    func usersCommandsReadTheFile() throws {
        let path = write(Self.shipped + "\ntemplates = /usr/share/grain-stories/Templates\nhandle-domain = family.test\n")
        let commands = [
            ["add", "maya"], ["list"], ["disable", "jonas"], ["enable", "jonas"], ["remove", "jonas"], ["restore", "jonas"],
            ["reset-password", "jonas"], ["quota", "jonas", "2G"],
        ]
        for words in commands {
            let fromFile = try users(words, defaultConfig: path)
            #expect(fromFile.dataDirectory == "/var/lib/grain-stories", "\(words)")
            #expect(fromFile.keyDirectory == "/var/lib/grain-stories-keys", "\(words)")
            #expect(fromFile.templatesDirectory == "/usr/share/grain-stories/Templates", "\(words)")
            #expect(fromFile.handleDomain == "family.test", "\(words)")
            #expect(fromFile.host == "127.0.0.1" && fromFile.port == 0, "a command never takes the server's address: \(words)")
            let fromEnvironment = try users(words, environment: ["GRAIN_STORIES_CONFIG": path, "GRAIN_STORIES_DATA": "/srv/env"])
            #expect(fromEnvironment.dataDirectory == "/srv/env", "\(words)")
            #expect(fromEnvironment.keyDirectory == "/var/lib/grain-stories-keys", "\(words)")
            let flagged = try users(words + ["--config", path, "--data", "/srv/stories"])
            #expect(flagged.dataDirectory == "/srv/stories", "\(words)")
            #expect(flagged.keyDirectory == "/var/lib/grain-stories-keys", "\(words)")
            #expect(try users(words, defaultConfig: "/nonexistent/grain-stories.conf").dataDirectory == "./data", "\(words)")
        }
    }
}
