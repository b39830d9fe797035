import App
import Foundation

// The executable only parses arguments and runs the application; everything else lives in App.
do {
    switch try Command.parse(Array(CommandLine.arguments.dropFirst())) {
    case .help:
        print(Command.usage)
    case .serve(let configuration):
        let app = try Application(configuration: configuration)
        try app.start()
        let seeded = try app.seedDemoIfAsked()
        if !seeded.isEmpty { print("Seeded the demo household: \(seeded.joined(separator: ", "))") }
        print("grain-stories is serving on \(app.publicURL)")
        await app.server.runUntilSignal()
        print("grain-stories stopped")
    }
} catch {
    FileHandle.standardError.write(Data("grain-stories: \(error)\n".utf8))
    exit(1)
}
