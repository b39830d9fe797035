import ATProto
import App
import Foundation
import HTTPServer
import Logging

extension Command {
    /// Carries out the command, printing what a person at the terminal needs.
    public func run() async throws {
        switch self {
        case .help:
            print(Command.usage)
        case .processImage(let input, let output, let maxBytes, let places):
            print(try Tools.processImage(input: input, output: output, maxBytes: maxBytes, placesCSV: places))
        case .processVideo(let input, let output, let start):
            print(try await Tools.processVideo(input: input, output: output, start: start))
        case .h3(let resolution):
            while let line = readLine() {
                print(Tools.h3Line(line, resolution: resolution))
            }
        case .addUser(let command):
            try await addUser(command)
        case .members(let command):
            try await members(command)
        case .backup(let data, let destination):
            try backup(dataDirectory: data, destination: destination)
        case .verifyBackup(let source):
            try verifyBackup(source)
        case .restore(let command):
            try restore(command)
        case .serve(let configuration):
            try await serve(configuration)
        }
    }

    func addUser(_ command: AddUser) async throws {
        var password: String?
        if command.passwordFromStdin {
            password = readLine(strippingNewline: true)
            guard let p = password, p.count >= 8 else {
                throw UsageError(description: "the password on standard input must be at least 8 characters")
            }
        }
        let app = try Application(configuration: command.configuration)
        let created = try await app.addAccount(name: command.name, displayName: command.displayName, password: password)
        print("Added \(created.handle)")
        if password == nil { print("Password (shown once): \(created.password)") }
    }

    func serve(_ configuration: ServeConfiguration) async throws {
        var settings = Log.Settings()
        settings.format = configuration.logFormat
        Log.configure(settings)
        // Past a file size limit (ulimit -f) write() then fails with EFBIG, which the blob store reports as a full
        // disk, instead of the default action of SIGXFSZ ending the whole server.
        signal(SIGXFSZ, SIG_IGN)
        // Watched before the port answers: a SIGTERM sent the moment it does must still stop the server.
        let stopSignals = StopSignals()
        let app = try Application(configuration: configuration)
        // Everything is ready before the first request is answered: /healthz means "serving".
        let seeded = try await app.seedDemoIfAsked()
        try app.start()
        let say = Announcements(format: configuration.logFormat)
        if !seeded.isEmpty {
            if configuration.isLoopbackOnly {
                say.say("Seeded the demo household. Sign in as:", event: "demo")
            } else {
                // Anyone on the network reaches this server, so the README's passwords would let them in.
                say.say("The demo household's passwords, made for this server because other devices can reach it.", event: "demo")
                say.say("(Shown once; `grain-stories users reset-password NAME` makes a new one.) Sign in as:", event: "demo")
            }
            for member in seeded {
                say.say(
                    "  \(member.handle)  password: \(member.password)", event: "demo account",
                    fields: ["handle": member.handle, "password": member.password])
            }
        }
        if let code = try app.setupCodeIfNeeded() {
            let file = configuration.dataDirectory + "/setup-code"
            say.say(
                "This household has no owner yet. Open /welcome and enter the setup code: \(code)", event: "setup code",
                fields: ["code": code, "file": file])
            say.say("(It is also in \(file); `grain-stories users add NAME` works too.)", event: "setup code")
        }
        say.say(
            "grain-stories is serving on \(app.publicURL)", event: "serving",
            fields: ["url": app.publicURL, "visibility": configuration.audience.rawValue])
        say.say("  \(Self.visibilityLine(configuration))", event: "visibility", fields: ["visibility": configuration.audience.rawValue])
        for url in app.addressesForOtherDevices() { say.say("  from other devices: \(url)", event: "address", fields: ["url": url]) }
        if let hint = app.reachabilityHint() { say.say("  \(hint)", event: "reachability") }
        // Standard output to a file or a pipe is block-buffered: flush, so that a supervisor (or a test waiting
        // for the port of `--port 0`) sees this line when it happens.
        fflush(nil)
        await app.runUntilSignal(stopSignals)
        say.say("grain-stories stopped", event: "stopped")
    }

    /// Which visibility is in force, said at every start: a household that was public before this version (nothing
    /// said otherwise) learns here that strangers no longer see its stories, and how to keep them public.
    static func visibilityLine(_ configuration: ServeConfiguration) -> String {
        switch (configuration.audience, configuration.appview, configuration.visibility) {
        case (_, .some, .some):
            "Visibility: public (--visibility does not apply with --appview: stories there are public on the network)"
        case (_, .some, nil): "Visibility: public (stories on the network are public)"
        case (.public, nil, _): "Visibility: public (anyone who reaches this server sees its stories)"
        case (.household, nil, .some):
            "Visibility: household (only signed-in members see its stories, photos and places)"
        case (.household, nil, nil):
            "Visibility: household, the default (only signed-in members see its stories, photos and places; "
                + "--visibility public shows them to anyone who reaches this server, as before)"
        }
    }
}
