import App
import Foundation

// The executable only parses arguments and runs the application; everything else lives in App.
do {
    switch try Command.parse(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment) {
    case .help:
        print(Command.usage)
    case .processImage(let input, let output, let maxBytes, let places):
        print(try Tools.processImage(input: input, output: output, maxBytes: maxBytes, placesCSV: places))
    case .h3(let resolution):
        while let line = readLine() {
            print(Tools.h3Line(line, resolution: resolution))
        }
    case .addUser(let command):
        var configuration = AppConfiguration()
        configuration.dataDirectory = command.dataDirectory
        configuration.handleDomain = command.handleDomain
        var password: String?
        if command.passwordFromStdin {
            password = readLine(strippingNewline: true)
            guard let p = password, p.count >= 8 else {
                throw Command.UsageError(description: "the password on standard input must be at least 8 characters")
            }
        }
        let app = try Application(configuration: configuration)
        let created = try app.addAccount(name: command.name, displayName: command.displayName, password: password)
        print("Added \(created.handle)")
        if password == nil { print("Password (shown once): \(created.password)") }
    case .serve(let configuration):
        // Past a file size limit (ulimit -f) write() then fails with EFBIG, which the blob store reports as a full
        // disk, instead of the default action of SIGXFSZ ending the whole server.
        signal(SIGXFSZ, SIG_IGN)
        let app = try Application(configuration: configuration)
        try app.start()
        let seeded = try app.seedDemoIfAsked()
        if !seeded.isEmpty {
            print("Seeded the demo household. Sign in at \(app.publicURL)/login as:")
            for member in seeded { print("  \(member.handle)  password: \(member.password)") }
        }
        print("grain-stories is serving on \(app.publicURL)")
        // Standard output to a file or a pipe is block-buffered: flush, so that a supervisor (or a test waiting
        // for the port of `--port 0`) sees this line when it happens.
        fflush(nil)
        await app.server.runUntilSignal()
        print("grain-stories stopped")
    }
} catch {
    FileHandle.standardError.write(Data("grain-stories: \(error)\n".utf8))
    exit(1)
}
