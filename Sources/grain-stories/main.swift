import Foundation
import Server

// The executable only parses arguments and runs the command; everything else lives in Server and below.
do {
    try await Command.parse(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment).run()
} catch {
    FileHandle.standardError.write(Data("grain-stories: \(error)\n".utf8))
    exit(1)
}
