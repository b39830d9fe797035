import App
import Backups
import Foundation
import HTTPServer
import Logging

/// One `serve` option, declared once: its name (the flag without `--`, and the configuration file's key), what it
/// takes, whether the environment (`GRAIN_STORIES_<NAME>`) and the configuration file may set it, its help, and what
/// it does to the configuration. Parsing, `help`, the environment and the configuration file all read
/// ``ServeOption/all``, so a new setting is one entry here and its field in ``ServeConfiguration``.
struct ServeOption: Sendable {
    /// What the option takes after its flag.
    enum Takes: Sendable, Equatable {
        /// Nothing: a switch, `true` or `false` in the environment and the configuration file.
        case nothing
        /// A value, shown in `help` by this placeholder (`ADDRESS`, `N`, `DIR`).
        case value(String)
    }

    /// Where `help` lists an option: the everyday ones, or the deployment's (after the paragraph on the environment
    /// and the configuration file).
    enum Section: Sendable { case everyday, deployment }

    typealias Apply = @Sendable (inout ServeConfiguration, String) throws(Command.UsageError) -> Void

    let name: String
    let takes: Takes
    /// Whether the environment and the configuration file may set it (the demo's benchmark seeds may not).
    let layered: Bool
    let section: Section
    /// The help text, a line each; the default is said in it.
    let help: [String]
    let apply: Apply

    init(
        _ name: String, _ takes: Takes, layered: Bool = true, section: Section = .everyday, help: [String], apply: @escaping Apply
    ) {
        self.name = name
        self.takes = takes
        self.layered = layered
        self.section = section
        self.help = help
        self.apply = apply
    }

    var flag: String { "--" + name }
    var isSwitch: Bool { takes == .nothing }
    /// `--public-url` is `GRAIN_STORIES_PUBLIC_URL`.
    var environmentVariable: String { "GRAIN_STORIES_" + name.uppercased().replacingOccurrences(of: "-", with: "_") }

    /// The options by flag (`--public-url`).
    static let byFlag: [String: ServeOption] = Dictionary(uniqueKeysWithValues: all.map { ($0.flag, $0) })

    /// The options the environment and the configuration file may set, in `help`'s order.
    static var layeredOptions: [ServeOption] { all.filter(\.layered) }

    /// The option's lines in `help`: the flag and its placeholder, then the help aligned in one column.
    var usageLines: [String] {
        let column = 22
        var head = flag
        if case .value(let placeholder) = takes { head += " " + placeholder }
        head += head.count < column ? String(repeating: " ", count: column - head.count) : "  "
        return ["  " + head + (help.first ?? "")] + help.dropFirst().map { String(repeating: " ", count: column + 2) + $0 }
    }
}

// MARK: Reading values

extension ServeOption {
    static func number<N: LosslessStringConvertible & Comparable>(
        _ value: String, _ flag: String, _ range: ClosedRange<N>, _ message: String? = nil
    ) throws(Command.UsageError) -> N {
        guard let n = N(value), range.contains(n) else {
            throw Command.UsageError(description: message ?? "\(flag) takes \(range.lowerBound) to \(range.upperBound)")
        }
        return n
    }

    /// Words a person reads on a page (the household's name, its contact line): trimmed, and `lengths` characters.
    static func text(_ value: String, _ flag: String, _ lengths: ClosedRange<Int>) throws(Command.UsageError) -> String {
        let text = value.trimmingCharacters(in: .whitespaces)
        guard lengths.contains(text.count) else {
            throw Command.UsageError(description: "\(flag) takes \(lengths.lowerBound) to \(lengths.upperBound) characters")
        }
        return text
    }

    static func list(_ value: String) -> [String] {
        value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    static func httpURL(_ value: String, _ message: String) throws(Command.UsageError) -> URL {
        guard let url = URL(string: value), url.scheme == "https" || url.scheme == "http", url.host != nil else {
            throw Command.UsageError(description: message)
        }
        return url
    }
}
