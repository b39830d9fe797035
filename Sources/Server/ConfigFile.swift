import Foundation

/// `/etc/grain-stories/grain-stories.conf` (or `--config FILE`): the serve options as `key = value` lines, with the
/// flags' names without their dashes (`public-url = https://stories.example`), `#` comments and blank lines. Switches
/// take `true` or `false`. Flags on the command line win over the environment, which wins over the file.
struct ConfigFile: Equatable {
    /// A configuration file is a few hundred bytes; anything near this is not one.
    static let sizeLimit = 64 * 1024

    /// Option (`--public-url`) to value, in the file's order.
    var values: [(option: String, value: String)]

    static func == (a: ConfigFile, b: ConfigFile) -> Bool {
        a.values.map(\.option) == b.values.map(\.option) && a.values.map(\.value) == b.values.map(\.value)
    }

    /// Parses the text of a file named `path` (for messages); every key must be a serve option, once.
    init(parsing text: String, path: String) throws(Command.UsageError) {
        values = []
        var seen: Set<String> = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let place = "\(path) line \(index + 1)"
            guard let equals = line.firstIndex(of: "=") else {
                throw Command.UsageError(description: "\(place): expected `key = value`, got \(line.prefix(80))")
            }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            let option = "--" + key
            guard let declared = ServeOption.byFlag[option], declared.layered else {
                throw Command.UsageError(description: "\(place): unknown key \(key.prefix(40)) (the keys are the serve flags without --)")
            }
            guard seen.insert(option).inserted else { throw Command.UsageError(description: "\(place): \(key) is set twice") }
            if declared.isSwitch, Command.switchValue(value) == nil {
                throw Command.UsageError(description: "\(place): \(key) must be true or false, not \(value.prefix(40))")
            }
            values.append((option, value))
        }
    }

    /// Reads `path`; throws a message naming the file when it cannot be read.
    static func load(_ path: String) throws(Command.UsageError) -> ConfigFile {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let data = FileManager.default.contents(atPath: path)
        else { throw Command.UsageError(description: "cannot read the configuration file \(path)") }
        guard (attributes[.size] as? Int ?? 0) <= sizeLimit, data.count <= sizeLimit else {
            throw Command.UsageError(description: "\(path) is over \(sizeLimit / 1024) KiB; it is not a grain-stories configuration file")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw Command.UsageError(description: "\(path) is not UTF-8 text") }
        return try ConfigFile(parsing: text, path: path)
    }
}

extension Command {
    /// Where the Debian package puts the configuration file; read only when it exists and no `--config` names another.
    public static let defaultConfigPath = "/etc/grain-stories/grain-stories.conf"

    /// `true`/`false` (and 1/0, yes/no, on/off) as a switch's value; nil for anything else.
    static func switchValue(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "1", "true", "yes", "on": true
        case "0", "false", "no", "off", "": false
        default: nil
        }
    }

    /// The serve arguments with the configuration file and the environment beneath them: the file's values, each
    /// replaced by the environment's where it sets one, then the command line (whose later flags win). `--config
    /// FILE` (or `GRAIN_STORIES_CONFIG`) names the file; without either, `defaultConfig` is read when it exists.
    static func layeredServeArguments(
        _ arguments: [String], environment: [String: String], defaultConfig: String?
    ) throws(UsageError) -> [String] {
        var commandLine: [String] = []
        var configPath = environment["GRAIN_STORIES_CONFIG"]
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--config" {
                guard let path = rest.popFirst(), !path.hasPrefix("--") else { throw UsageError(description: "--config needs a file") }
                configPath = path
            } else {
                commandLine.append(argument)
            }
        }
        if configPath == nil, let defaultConfig, FileManager.default.fileExists(atPath: defaultConfig) { configPath = defaultConfig }
        var layered: [String: String] = [:]
        var order: [String] = []
        if let configPath {
            for (option, value) in try ConfigFile.load(configPath).values {
                layered[option] = value
                order.append(option)
            }
        }
        for option in ServeOption.layeredOptions {
            guard let value = environment[option.environmentVariable] else { continue }
            if option.isSwitch, switchValue(value) == nil {
                throw UsageError(description: "\(option.environmentVariable) must be true or false, not \(value)")
            }
            if layered.updateValue(value, forKey: option.flag) == nil { order.append(option.flag) }
        }
        var beneath: [String] = []
        for option in order {
            guard let value = layered[option] else { continue }
            if ServeOption.byFlag[option]?.isSwitch == true {
                if switchValue(value) == true { beneath.append(option) }
            } else {
                beneath += [option, value]
            }
        }
        return beneath + commandLine
    }
}
