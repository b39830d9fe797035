import Foundation
import Logging

/// What `serve` tells whoever started it on standard output: where it serves, which visibility is in force, the
/// setup code, the demo's passwords, that it stopped. Sentences as they are; with `--log-format json`, each one a
/// JSON object like the log's (the sentence as `message`, what it names as fields, `event` saying which), so a
/// collector that parses every line of the output never meets one it cannot read.
struct Announcements {
    let format: Log.Format
    var write: (String) -> Void = { print($0) }

    /// Says `sentence`; in JSON also `event` and `fields`.
    func say(_ sentence: String, event: String, fields: [String: String] = [:]) {
        switch format {
        case .text: write(sentence)
        case .json:
            var fields = fields
            fields["event"] = event
            write(Log.line(.info, sentence.trimmingCharacters(in: .whitespaces), subsystem: "server", fields: fields, format: .json))
        }
    }
}
