/// Where every `users` command finds the household: what `serve` would read (the configuration file, then the
/// GRAIN_STORIES_* environment), with the command's own `--data`, `--key-file`, `--key-dir`, `--handle-domain` and
/// `--config` on top. So on a box installed from the package each of them works on the data, the key and the
/// templates where the server has them, from any directory.
extension Command {
    /// The flags every `users` command takes, each with a value.
    static let householdFlags: Set<String> = ["--config", "--data", "--key-file", "--key-dir", "--handle-domain"]
    static let householdUsage = "[--data DIR] [--key-dir DIR] [--key-file PATH] [--handle-domain NAME] [--config FILE]"

    /// Takes the household flags out of `arguments` and layers them over serve's configuration file and environment.
    /// - Returns: the configuration the command opens the data with, and the other arguments in their order.
    static func parseHousehold(
        _ arguments: [String], environment: [String: String], defaultConfig: String?
    ) throws(UsageError) -> (configuration: ServeConfiguration, rest: [String]) {
        var flags: [String] = []
        var rest: [String] = []
        var remaining = arguments[...]
        while let word = remaining.popFirst() {
            guard householdFlags.contains(word) else {
                rest.append(word)
                continue
            }
            guard let value = remaining.popFirst(), !value.hasPrefix("--") else { throw UsageError(description: "\(word) needs a value") }
            flags += [word, value]
        }
        let serve = try parseServe(try layeredServeArguments(flags, environment: environment, defaultConfig: defaultConfig))
        return (ServeConfiguration.command(serve), rest)
    }
}
